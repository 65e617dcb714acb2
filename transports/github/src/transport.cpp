#include "ganglion/github/transport.hpp"

namespace ganglion::github {

void register_transport(core::source_registry& sources, std::shared_ptr<http::runtime> rt,
                        options opts) {
  sources["github"] = make_source_factory(std::move(rt), std::move(opts));
}

} // namespace ganglion::github
