#include "ganglion/gcp/transport.hpp"

#include "ganglion/http/transport.hpp"

namespace ganglion::gcp {

void register_transport(core::source_registry& sources, const std::shared_ptr<http::runtime>& http,
                        options opts) {
  sources["pubSub"] = make_source_factory(http->requests, std::move(opts));
}

} // namespace ganglion::gcp
