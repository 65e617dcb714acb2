#include <algorithm>

#include "load/load_common.hpp"
#include "load/load_kinds.hpp"
#include "transports/load_transports.hpp"
#include "yaml/yaml_json.hpp"
#include "yaml/yaml_node.hpp"
#include "yaml/yaml_path.hpp"
#include "yaml/yaml_schema.hpp"

namespace ganglion::dsl::detail {

namespace {

webhook_event read_webhook(const YAML::Node& node) {
  webhook_event out;
  out.endpoint = read_string(node, "endpoint");
  out.method = read_string(node, "method");
  out.port = read_string(node, "port");
  out.url = read_string(node, "url");
  out.server_cert_secret = read_key_selector(node, "serverCertSecret");
  out.server_key_secret = read_key_selector(node, "serverKeySecret");
  out.auth_secret = read_key_selector(node, "authSecret");
  out.max_payload_size = read_int(node, "maxPayloadSize", out.max_payload_size);
  out.metadata = read_string_map(node, "metadata");
  out.filter = read_source_filter(node);
  return out;
}

calendar_event read_calendar(const YAML::Node& node) {
  calendar_event out;
  out.schedule = read_string(node, "schedule");
  out.interval = read_string(node, "interval");
  out.exclusion_dates = read_string_list(node, "exclusionDates");
  out.timezone = read_string(node, "timezone");
  out.metadata = read_string_map(node, "metadata");
  auto persistence = child(node, "persistence");
  if (!is_absent(persistence) && persistence.IsMap()) {
    calendar_persistence p;
    auto catchup = child(persistence, "catchup");
    p.catchup_enabled = read_bool(catchup, "enabled");
    p.catchup_max_duration = read_string(catchup, "maxDuration");
    auto config_map = child(persistence, "configMap");
    p.config_map_name = read_string(config_map, "name");
    p.config_map_create_if_not_exist = read_bool(config_map, "createIfNotExist");
    out.persistence = std::move(p);
  }
  out.filter = read_source_filter(node);
  return out;
}

} // namespace

event_source load_event_source(const YAML::Node& root, const load_context& cx) {
  event_source out;
  out.metadata = read_object_meta(child(root, "metadata"));
  auto spec = child(root, "spec");
  out.spec.event_bus_name = read_string(spec, "eventBusName", out.spec.event_bus_name);
  if (out.spec.event_bus_name.empty())
    out.spec.event_bus_name = "default";
  out.spec.replicas = static_cast<std::int32_t>(
    std::clamp<std::int64_t>(read_int(spec, "replicas", 1), 1, INT32_MAX));
  if (!spec.IsMap())
    return out;
  for (auto it = spec.begin(); it != spec.end(); ++it) {
    if (!it->first.IsScalar() || !it->second.IsMap())
      continue;
    const auto& type = it->first.Scalar();
    if (std::find(event_source_types.begin(), event_source_types.end(), type)
        == event_source_types.end())
      continue;
    const auto* map_type = schema_field_type("EventSourceSpec", type);
    auto event_type = map_type ? std::string_view{*map_type}.substr(1) : std::string_view{"a"};
    for (auto ev = it->second.begin(); ev != it->second.end(); ++ev) {
      if (!ev->first.IsScalar())
        continue;
      const auto& name = ev->first.Scalar();
      if (type == "webhook") {
        out.spec.webhook.emplace(name, read_webhook(ev->second));
      } else if (type == "calendar") {
        out.spec.calendar.emplace(name, read_calendar(ev->second));
      } else if (type == "kafka") {
        auto path = child_path(child_path("spec", type), name);
        out.spec.kafka.emplace(name, read_kafka_event(ev->second, path, cx));
      } else if (type == "nats") {
        out.spec.nats.emplace(name, read_nats_event(ev->second));
      } else {
        out.spec.unmodelled.push_back(
          unmodelled_event{type, name, yaml_to_json(ev->second, event_type).dump()});
      }
    }
  }
  return out;
}

} // namespace ganglion::dsl::detail
