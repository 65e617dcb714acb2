#include "ganglion/mqtt/transport.hpp"

namespace ganglion::mqtt {

void register_transport(core::source_registry& sources, core::trigger_registry&, options opts) {
  sources["mqtt"] = make_source_factory(opts);
}

} // namespace ganglion::mqtt
