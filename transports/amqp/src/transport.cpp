#include "ganglion/amqp/transport.hpp"

namespace ganglion::amqp {

void register_transport(core::source_registry& sources, core::trigger_registry&, options opts) {
  sources["amqp"] = make_source_factory(opts);
}

} // namespace ganglion::amqp
