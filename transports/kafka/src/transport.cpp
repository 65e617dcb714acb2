#include "ganglion/kafka/transport.hpp"

#include "ganglion/kafka/kafka_source.hpp"
#include "ganglion/kafka/kafka_trigger.hpp"

namespace ganglion::kafka {

void register_transport(core::source_registry& sources, core::trigger_registry& triggers) {
  sources["kafka"] = make_kafka_source_factory();
  triggers["kafka"] = make_kafka_trigger_factory();
}

} // namespace ganglion::kafka
