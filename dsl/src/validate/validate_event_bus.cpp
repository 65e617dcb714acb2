#include <nlohmann/json.hpp>

#include "validate/validate.hpp"
#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/json_rules.hpp"

namespace ganglion::dsl::detail {

namespace {

constexpr std::int64_t max_nats_payload = 64ll * 1024 * 1024; // nats-server's max_pending

void validate_stream(const jetstream_stream_settings& s, const std::string& path,
                     const load_context& cx) {
  auto at = [&](const char* key) { return child_path(path, key); };
  if (s.replicas < 1 || s.replicas > 5)
    cx.error(at("replicas"), "stream replicas must be 1 to 5, got " + std::to_string(s.replicas));
  if (s.max_msgs < -1)
    cx.error(at("maxMsgs"), "maxMsgs must be -1 (no limit) or more");
  if (s.max_bytes < -1)
    cx.error(at("maxBytes"), "maxBytes must be -1 (no limit) or more");
  if (s.max_age_ns < 0)
    cx.error(at("maxAge"), "maxAge must not be negative (0: no limit)");
  if (s.duplicates_ns < 0)
    cx.error(at("duplicates"), "duplicates must not be negative");
  else if (s.max_age_ns > 0 && s.duplicates_ns > s.max_age_ns)
    cx.error(at("duplicates"), "the duplicates window cannot be longer than maxAge (JetStream "
                               "refuses the stream)");
}

void validate_jetstream(const event_bus& bus, const nlohmann::json& spec, const std::string& path,
                        const load_context& cx) {
  const auto& js = *bus.spec.jetstream;
  if (bus.spec.type == "jetstream") {
    required(spec, "version", path, cx);
    if (has(spec, "replicas") && spec["replicas"].is_number_integer()) {
      auto replicas = spec["replicas"].get<std::int64_t>();
      if (replicas == 2 || replicas <= 0)
        cx.error(path + ".replicas", "a jetstream bus needs 1 replica or at least 3");
    }
  } else {
    require(js.url, child_path(path, "url"), "url", cx);
  }
  validate_stream(js.stream, child_path(path, "streamConfig"), cx);
  if (js.max_payload < 0 || js.max_payload > max_nats_payload)
    cx.error(child_path(path, "maxPayload"), "maxPayload must be 0 to 64MB");
  check_secret(js.access_secret, child_path(path, "accessSecret"), cx);
  check_tls(js.tls, child_path(path, "tls"), cx);
}

void validate_kafka(const kafka_bus& kafka, const std::string& path, const load_context& cx) {
  require(kafka.url, child_path(path, "url"), "url", cx);
  check_tls(kafka.tls, child_path(path, "tls"), cx);
  check_sasl(kafka.sasl, child_path(path, "sasl"), cx);
  check_consumer_group(kafka.consumer_group, child_path(path, "consumerGroup"), cx);
  warn_ignored(path, "version", "librdkafka negotiates the protocol version with the brokers",
               cx);
  warn_ignored(path, "partitioner",
               "ganglion keys each event by eventSourceName.eventName and lets librdkafka "
               "partition by key",
               cx);
}

} // namespace

void validate_event_bus(const event_bus& bus, const load_context& cx) {
  if (bus.spec.type.empty()) {
    cx.error("spec", "an EventBus needs one of nats, jetstream, jetstreamExotic or kafka");
    return;
  }
  auto spec = nlohmann::json::parse(bus.spec.json, nullptr, false);
  if (spec.is_discarded())
    return;
  auto path = "spec." + bus.spec.type;
  if (bus.spec.type == "nats") {
    bool native = has(spec, "native");
    bool exotic = has(spec, "exotic");
    if (native && exotic)
      cx.error(path, "nats takes native or exotic, not both");
    if (!native && !exotic)
      cx.error(path, "nats needs native or exotic");
    if (exotic) {
      required_object(spec["exotic"], "clusterID", path + ".exotic", cx);
      required(spec["exotic"], "url", path + ".exotic", cx);
    }
  } else if (bus.spec.jetstream) {
    validate_jetstream(bus, spec, path, cx);
  } else if (bus.spec.kafka) {
    validate_kafka(*bus.spec.kafka, path, cx);
  }
}

} // namespace ganglion::dsl::detail
