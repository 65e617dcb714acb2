#include "ganglion/gitlab/transport.hpp"

namespace ganglion::gitlab {

void register_transport(core::source_registry& sources, std::shared_ptr<http::runtime> rt,
                        options opts) {
  sources["gitlab"] = make_source_factory(std::move(rt), std::move(opts));
}

} // namespace ganglion::gitlab
