#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::kafka::detail {

using namespace dsl::detail;

void check_bus(const bus_spec& spec, const dsl::spec_check_input& in) {
  const auto& path = in.path;
  const auto& cx = in.cx;
  require(spec.url, child_path(path, "url"), "url", cx);
  check_tls(spec.tls, child_path(path, "tls"), cx);
  check_sasl(spec.sasl, child_path(path, "sasl"), cx);
  check_consumer_group(spec.consumer_group, child_path(path, "consumerGroup"), cx);
  warn_ignored(path, "version", "librdkafka negotiates the protocol version with the brokers", cx);
  warn_ignored(path, "partitioner",
               "ganglion keys each event by eventSourceName.eventName and lets librdkafka "
               "partition by key",
               cx);
}

} // namespace ganglion::kafka::detail
