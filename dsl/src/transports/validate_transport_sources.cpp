#include <charconv>

#include "transports/validate_clients.hpp"
#include "validate/validate_common.hpp"
#include "validate/validate_sources.hpp"
#include "yaml/yaml_path.hpp"

namespace ganglion::dsl::detail {

namespace {

/// Go's strconv.ParseInt(text, 10, 32), not negative: a partition number.
bool is_partition(std::string_view text) {
  if (!text.empty() && text.front() == '+')
    text.remove_prefix(1);
  std::int32_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc{} && end == text.data() + text.size() && value >= 0;
}

void validate_kafka_event(const kafka_event& k, const std::string& at, const load_context& cx) {
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

} // namespace

void validate_kafka_events(const std::map<std::string, kafka_event>& events,
                           const load_context& cx) {
  for (const auto& [name, k] : events)
    validate_kafka_event(k, child_path("spec.kafka", name), cx);
}

void validate_nats_events(const std::map<std::string, nats_event>& events,
                          const load_context& cx) {
  for (const auto& [name, n] : events) {
    auto at = child_path("spec.nats", name);
    require(n.url, child_path(at, "url"), "url", cx);
    require(n.subject, child_path(at, "subject"), "subject", cx);
    if (n.queue.empty() && present(cx, child_path(at, "queue")))
      cx.error(child_path(at, "queue"), "queue must not be empty when given");
    check_tls(n.tls, child_path(at, "tls"), cx);
    check_nats_auth(n.auth, child_path(at, "auth"), cx);
  }
}

} // namespace ganglion::dsl::detail
