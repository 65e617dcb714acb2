#include <algorithm>
#include <array>
#include <string_view>

#include "ganglion/dsl/kind/embedded_yaml.hpp"
#include "spec/spec_steps.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

// Argo's `config` is sarama settings as YAML (`consumer: {fetch: {min: 1}}`). ganglion runs
// librdkafka, so it takes `property: value` lines of librdkafka properties instead: the
// connection and fetch tuning below. Sarama keys and the properties ganglion derives from the
// manifest are ignored with a warning.

namespace ganglion::kafka::detail {

using namespace dsl::detail;

namespace {

enum class kind { text, integer, boolean, choice };

struct property {
  std::string_view name;
  kind type;
  std::string_view choices = {}; ///< for `choice`: the values, space-separated
};

constexpr std::array<property, 35> accepted{{
  {"client.id", kind::text},
  {"client.rack", kind::text},
  {"socket.timeout.ms", kind::integer},
  {"socket.keepalive.enable", kind::boolean},
  {"socket.send.buffer.bytes", kind::integer},
  {"socket.receive.buffer.bytes", kind::integer},
  {"socket.connection.setup.timeout.ms", kind::integer},
  {"connections.max.idle.ms", kind::integer},
  {"reconnect.backoff.ms", kind::integer},
  {"reconnect.backoff.max.ms", kind::integer},
  {"retry.backoff.ms", kind::integer},
  {"metadata.max.age.ms", kind::integer},
  {"topic.metadata.refresh.interval.ms", kind::integer},
  {"topic.metadata.refresh.sparse", kind::boolean},
  {"broker.address.family", kind::choice, "any v4 v6"},
  {"message.max.bytes", kind::integer},
  {"receive.message.max.bytes", kind::integer},
  {"api.version.request", kind::boolean},
  {"broker.version.fallback", kind::text},
  {"allow.auto.create.topics", kind::boolean},
  {"ssl.endpoint.identification.algorithm", kind::choice, "none https"},
  {"fetch.min.bytes", kind::integer},
  {"fetch.max.bytes", kind::integer},
  {"fetch.wait.max.ms", kind::integer},
  {"fetch.error.backoff.ms", kind::integer},
  {"fetch.message.max.bytes", kind::integer},
  {"max.partition.fetch.bytes", kind::integer},
  {"queued.min.messages", kind::integer},
  {"queued.max.messages.kbytes", kind::integer},
  {"session.timeout.ms", kind::integer},
  {"heartbeat.interval.ms", kind::integer},
  {"max.poll.interval.ms", kind::integer},
  {"coordinator.query.interval.ms", kind::integer},
  {"isolation.level", kind::choice, "read_committed read_uncommitted"},
  {"check.crcs", kind::boolean},
}};

/// Set by the source from url, consumerGroup, tls and sasl, or needed for at-least-once.
constexpr std::array<std::string_view, 21> managed{
  "bootstrap.servers",        "metadata.broker.list",     "group.id",
  "enable.auto.commit",       "enable.auto.offset.store", "auto.offset.reset",
  "partition.assignment.strategy", "enable.partition.eof", "security.protocol",
  "sasl.mechanism",           "sasl.mechanisms",          "sasl.username",
  "sasl.password",            "enable.ssl.certificate.verification", "ssl.ca.location",
  "ssl.certificate.location", "ssl.key.location",         "ssl.key.password",
  "ssl.ca.pem",               "ssl.certificate.pem",      "ssl.key.pem"};

bool is_choice(std::string_view choices, std::string_view value) {
  while (!choices.empty()) {
    auto space = choices.find(' ');
    if (choices.substr(0, space) == value)
      return true;
    choices = space == std::string_view::npos ? std::string_view{} : choices.substr(space + 1);
  }
  return false;
}

/// The value librdkafka is given, or nullopt (reported) when it does not fit the property.
std::optional<std::string> value_of(const property& p, const YAML::Node& value,
                                    const std::string& at, const load_context& cx) {
  if (!value.IsScalar()) {
    cx.error(at, std::string{p.name} + " needs a single value, got " + describe(value));
    return std::nullopt;
  }
  const auto& text = value.Scalar();
  switch (p.type) {
  case kind::integer:
    if (scalar_int(value))
      return text;
    cx.error(at, std::string{p.name} + " must be an integer, got \"" + text + "\"");
    return std::nullopt;
  case kind::boolean:
    if (auto b = scalar_bool(value))
      return *b ? "true" : "false";
    cx.error(at, std::string{p.name} + " must be true or false, got \"" + text + "\"");
    return std::nullopt;
  case kind::choice:
    if (is_choice(p.choices, text))
      return text;
    cx.error(at, std::string{p.name} + " must be one of " + std::string{p.choices} + ", got \""
                   + text + "\"");
    return std::nullopt;
  case kind::text:
    break;
  }
  return text;
}

} // namespace

std::map<std::string, std::string> read_config(const YAML::Node& node, const std::string& path,
                                               const load_context& cx) {
  std::map<std::string, std::string> out;
  auto root = load_embedded_yaml(node, path, cx);
  if (!root)
    return out;
  for (auto it = root->begin(); it != root->end(); ++it) {
    if (!it->first.IsScalar())
      continue;
    const auto& key = it->first.Scalar();
    auto at = child_path(path, key);
    if (std::find(managed.begin(), managed.end(), key) != managed.end()) {
      cx.warning(at, "ignored: ganglion sets " + key
                       + " itself (from url, consumerGroup, tls and sasl)");
      continue;
    }
    auto p = std::find_if(accepted.begin(), accepted.end(),
                          [&](const property& a) { return a.name == key; });
    if (p == accepted.end()) {
      cx.warning(at, "ignored: \"" + key
                       + "\" is not a librdkafka property ganglion passes on (Argo's sarama "
                         "settings do not apply; see docs/compatibility.md)");
      continue;
    }
    if (auto value = value_of(*p, it->second, at, cx))
      out.emplace(key, std::move(*value));
  }
  return out;
}

} // namespace ganglion::kafka::detail
