#include <algorithm>
#include <limits>

#include "ganglion/dsl/kind/read.hpp"
#include "spec/spec_steps.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::kafka::detail {

using namespace dsl::detail;

namespace {

std::int32_t to_int32(std::int64_t value) {
  return static_cast<std::int32_t>(std::clamp<std::int64_t>(
    value, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()));
}

} // namespace

event_spec read_event(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  event_spec out;
  out.url = read_string(node, "url");
  out.topic = read_string(node, "topic");
  out.partition = read_string(node, "partition");
  out.consumer_group = read_consumer_group(node, "consumerGroup");
  out.limit_events_per_second = read_int(node, "limitEventsPerSecond");
  out.version = read_string(node, "version");
  out.tls = read_tls(node, "tls");
  out.sasl = read_sasl(node, "sasl");
  out.json_body = read_bool(node, "jsonBody");
  out.config = read_config(child(node, "config"), child_path(in.path, "config"), in.cx);
  out.metadata = read_string_map(node, "metadata");
  return out;
}

trigger_spec read_trigger(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  trigger_spec out;
  out.url = read_string(node, "url");
  out.topic = read_string(node, "topic");
  if (auto partition = scalar_int(child(node, "partition")))
    out.partition = to_int32(*partition);
  out.partitioning_key = read_string(node, "partitioningKey");
  if (auto acks = scalar_int(child(node, "requiredAcks"))) {
    if (*acks == 0)
      in.cx.warning(child_path(in.path, "requiredAcks"),
                 "requiredAcks 0 waits for all in-sync replicas (-1), as in Argo; write 1 to "
                 "wait for the leader only");
    else
      out.required_acks = to_int32(*acks);
  }
  out.compress = read_bool(node, "compress");
  if (auto flush = read_int(node, "flushFrequency"); flush != 0)
    out.flush_frequency_ms = to_int32(flush);
  out.version = read_string(node, "version");
  out.tls = read_tls(node, "tls");
  out.sasl = read_sasl(node, "sasl");
  out.headers = read_string_map(node, "headers");
  out.secure_headers = read_secure_headers(node, "secureHeaders");
  return out;
}

} // namespace ganglion::kafka::detail
