#include "bus/kafka_bus_config.hpp"

#include <unistd.h>

#include <cstdio>
#include <random>

#include <fmt/format.h>

namespace ganglion::kafka::detail {

namespace {

[[noreturn]] void invalid(const std::string& what) {
  throw config_error("kafka bus: " + what);
}

void check_name(const std::string& value, const char* field) {
  // Kafka topic and group names: 249 characters of [a-zA-Z0-9._-].
  for (char c : value) {
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '.' || c == '_' || c == '-';
    if (!ok)
      invalid(fmt::format("{}: '{}' has a character Kafka refuses in a name ('{}')", field, value,
                          c));
  }
  if (value.size() > 240)
    invalid(fmt::format("{}: '{}' is longer than 240 characters", field, value));
}

std::string default_replica_id() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0')
    std::snprintf(host, sizeof host, "ganglion");
  std::random_device random;
  return fmt::format("{}-{}-{:08x}", host, getpid(), random());
}

void quiet_error(rd_kafka_t*, int code, const char* reason, void* opaque) {
  switch (code) {
    case RD_KAFKA_RESP_ERR__TRANSPORT:
    case RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN:
    case RD_KAFKA_RESP_ERR__RESOLVE:
      return;
    default:
      if (auto* hooks = static_cast<client_hooks*>(opaque))
        hooks->log.on_error(code, rd_kafka_err2name(static_cast<rd_kafka_resp_err_t>(code)),
                            reason, code == RD_KAFKA_RESP_ERR__FATAL);
  }
}

} // namespace

void quiet_connection_errors(client_config& cfg) {
  set_property(cfg, "statistics.interval.ms", "0");
  set_property(cfg, "log_level", "2");
  rd_kafka_conf_set_error_cb(cfg.conf.get(), quiet_error);
}

std::string ms(std::chrono::milliseconds duration) {
  return std::to_string(duration.count());
}

std::string bus_settings::group_of(const std::string& sensor) const {
  return group_prefix + "-" + sensor;
}

client_config bus_settings::client(const std::string& role) const {
  client_settings s{.name = fmt::format("eventbus {} {}", topic, role),
                    .url = spec.url,
                    .tls = spec.tls,
                    .sasl = spec.sasl,
                    .version = spec.version,
                    .properties = {}};
  client_config cfg;
  try {
    cfg = make_client_config(s, secrets.get());
    set_property(cfg, "client.id", fmt::format("ganglion-{}-{}", options.replica_id, role));
    for (const auto& [name, value] : options.properties)
      set_property(cfg, name, value, "properties." + name);
  } catch (const config_error& ex) {
    invalid(ex.what());
  }
  return cfg;
}

bus_settings make_bus_settings(const bus_spec& spec,
                               std::shared_ptr<const core::secret_store> secrets,
                               kafka_bus_options options) {
  bus_settings s;
  s.spec = spec;
  s.options = std::move(options);
  s.secrets = std::move(secrets);
  if (s.spec.url.empty())
    invalid("url: the broker list is empty");
  if (s.spec.topic.empty())
    invalid("topic is empty");
  check_name(s.spec.topic, "topic");
  if (s.options.replica_id.empty())
    s.options.replica_id = default_replica_id();
  if (s.options.shards == 0 || s.options.shards > 10000)
    invalid(fmt::format("shards: {} is not in 1..10000", s.options.shards));
  if (s.options.heartbeat_interval >= s.options.session_timeout)
    invalid("the heartbeat interval must be shorter than the session timeout");
  if (s.options.max_in_flight == 0 || s.options.max_in_flight > 10000000)
    invalid("max_in_flight must be in 1..10000000");
  s.topic = s.spec.topic;
  s.state_topic = s.topic + "-state";
  s.owners_topic = s.topic + "-owners";
  s.group_prefix = s.topic;
  if (s.spec.consumer_group && !s.spec.consumer_group->group_name.empty()) {
    s.group_prefix = s.spec.consumer_group->group_name;
    check_name(s.group_prefix, "consumerGroup.groupName");
  }
  s.client("check"); // secrets, TLS and SASL settings and extra properties are valid
  return s;
}

} // namespace ganglion::kafka::detail
