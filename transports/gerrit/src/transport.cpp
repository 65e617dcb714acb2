#include "ganglion/gerrit/transport.hpp"

namespace ganglion::gerrit {

void register_transport(core::source_registry& sources, std::shared_ptr<http::runtime> rt,
                        options opts) {
  sources["gerrit"] = make_source_factory(std::move(rt), opts);
}

} // namespace ganglion::gerrit
