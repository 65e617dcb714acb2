#include <charconv>

#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "spec/spec_steps.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::kafka::detail {

using namespace dsl::detail;

namespace {

/// Go's strconv.ParseInt(text, 10, 32), not negative: a partition number.
bool is_partition(std::string_view text) {
  if (!text.empty() && text.front() == '+')
    text.remove_prefix(1);
  std::int32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc{} && end == text.data() + text.size() && value >= 0;
}

} // namespace

void check_event(const event_spec& k, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  require(k.url, child_path(at, "url"), "url", cx);
  require(k.topic, child_path(at, "topic"), "topic", cx);
  if (k.partition.empty() && !k.consumer_group)
    cx.error(at, "a kafka event needs partition or consumerGroup");
  if (k.consumer_group) {
    auto group = child_path(at, "consumerGroup");
    require(k.consumer_group->group_name, child_path(group, "groupName"),
            "consumerGroup.groupName", cx);
    check_consumer_group(k.consumer_group, group, cx);
    if (!k.partition.empty())
      cx.warning(child_path(at, "partition"),
                 "ignored: consumerGroup takes precedence over partition (as in Argo)");
  } else if (!k.partition.empty() && !is_partition(k.partition)) {
    cx.error(child_path(at, "partition"),
             "partition must be a partition number (0, 1, …), got \"" + k.partition + "\"");
  }
  if (k.limit_events_per_second < 0)
    cx.error(child_path(at, "limitEventsPerSecond"), "limitEventsPerSecond must not be negative");
  check_tls(k.tls, child_path(at, "tls"), cx);
  check_sasl(k.sasl, child_path(at, "sasl"), cx);
  warn_ignored(at, "version", "librdkafka negotiates the protocol version with the brokers", cx);
  warn_ignored(at, "schemaRegistry",
               "ganglion does not decode Avro; the body is the message value as received", cx);
  warn_ignored(at, "awsMskIamAuth",
               "AWS MSK IAM authentication is not supported; connect with sasl instead", cx);
}

void check_trigger(const trigger_spec& kafka, const dsl::spec_check_input& in) {
  const auto& path = in.path;
  const auto& cx = in.cx;
  const auto& scope = *in.scope;
  require(kafka.url, child_path(path, "url"), "url", cx);
  require(kafka.topic, child_path(path, "topic"), "topic", cx);
  require_payload(in.action->payload, path, "kafka", scope, cx);
  validate_parameters(in.action->parameters, child_path(path, "parameters"), false,
                      scope, cx, "kafka.parameters");
  auto acks = kafka.required_acks;
  if (acks != -1 && acks != 1)
    cx.error(child_path(path, "requiredAcks"),
             "requiredAcks must be -1 or 0 (all in-sync replicas) or 1 (the leader), got "
               + std::to_string(acks));
  if (kafka.partition && *kafka.partition < 0)
    cx.error(child_path(path, "partition"), "partition must not be negative");
  else if (kafka.partition)
    cx.warning(child_path(path, "partition"),
               "partition is deprecated and ignored by Argo, which spreads messages by key; "
               "ganglion sends every message to partition "
                 + std::to_string(*kafka.partition));
  check_secure_headers(kafka.secure_headers, child_path(path, "secureHeaders"), cx);
  check_tls(kafka.tls, child_path(path, "tls"), cx);
  check_sasl(kafka.sasl, child_path(path, "sasl"), cx);
  warn_ignored(path, "version", "librdkafka negotiates the protocol version with the brokers",
               cx);
  warn_ignored(path, "schemaRegistry",
               "ganglion does not encode Avro; the payload is sent as JSON", cx);
}

} // namespace ganglion::kafka::detail
