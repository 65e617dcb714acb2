#include "ganglion/dsl/kind/read.hpp"
#include "load/load_kinds.hpp"
#include "load/load_bus_settings.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::dsl::detail {

namespace {

/// `spec.jetstream` (a cluster Argo's controller deploys: no url) or `spec.jetstreamExotic`.
jetstream_bus read_jetstream(const YAML::Node& node, const std::string& path,
                             const load_context& cx) {
  jetstream_bus out;
  out.url = read_string(node, "url");
  out.access_secret = read_key_selector(node, "accessSecret");
  out.tls = read_tls(node, "tls");
  out.stream = read_stream_config(child(node, "streamConfig"), child_path(path, "streamConfig"),
                                  cx);
  if (auto text = read_optional_string(node, "maxPayload")) {
    if (auto size = parse_nats_size(*text))
      out.max_payload = *size;
    else
      cx.error(child_path(path, "maxPayload"),
               "invalid maxPayload \"" + *text + "\" (bytes, or a size such as 1MB)");
  }
  return out;
}

kafka_bus read_kafka(const YAML::Node& node, const object_meta& meta) {
  kafka_bus out;
  out.url = read_string(node, "url");
  out.topic = read_string(node, "topic");
  if (out.topic.empty())
    out.topic = (meta.namespace_.empty() ? std::string{"argo-events"} : meta.namespace_) + "-"
                + meta.name;
  out.version = read_string(node, "version");
  out.tls = read_tls(node, "tls");
  out.sasl = read_sasl(node, "sasl");
  out.consumer_group = read_consumer_group(node, "consumerGroup");
  return out;
}

} // namespace

event_bus load_event_bus(const YAML::Node& root, const load_context& cx) {
  event_bus out;
  out.metadata = read_object_meta(child(root, "metadata"));
  auto spec = child(root, "spec");
  static constexpr std::pair<std::string_view, std::string_view> kinds[] = {
    {"nats", "NATSBus"},
    {"jetstream", "JetStreamBus"},
    {"jetstreamExotic", "JetStreamConfig"},
    {"kafka", "KafkaBus"},
  };
  for (const auto& [key, type] : kinds) {
    auto node = child(spec, key);
    if (is_absent(node))
      continue;
    out.spec.type = key;
    out.spec.json = read_json(spec, key, type);
    auto path = child_path("spec", key);
    if (key == "jetstream" || key == "jetstreamExotic")
      out.spec.jetstream = read_jetstream(node, path, cx);
    else if (key == "kafka")
      out.spec.kafka = read_kafka(node, out.metadata);
    break;
  }
  return out;
}

} // namespace ganglion::dsl::detail
