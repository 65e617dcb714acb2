#include "ganglion/bitbucket/transport.hpp"

namespace ganglion::bitbucket {

void register_transport(core::source_registry& sources, std::shared_ptr<http::runtime> rt,
                        options opts) {
  sources["bitbucket"] = make_cloud_source_factory(rt, opts);
  sources["bitbucketserver"] = make_server_source_factory(std::move(rt), opts);
}

} // namespace ganglion::bitbucket
