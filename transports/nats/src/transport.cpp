#include "ganglion/nats/transport.hpp"

namespace ganglion::nats {

void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        options opts) {
  sources["nats"] = make_source_factory(opts);
  triggers["nats"] = make_trigger_factory(opts);
}

} // namespace ganglion::nats
