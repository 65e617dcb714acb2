#include <algorithm>
#include <charconv>
#include <chrono>
#include <optional>
#include <map>

#include <nlohmann/json.hpp>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/cron.hpp"
#include "ganglion/dsl/duration.hpp"
#include "load/load_kinds.hpp"
#include "validate/validate.hpp"
#include "validate/validate_common.hpp"
#include "validate/validate_compile.hpp"
#include "validate/validate_json.hpp"
#include "validate/validate_sources.hpp"
#include "validate/validate_time_zone.hpp"
#include "yaml/yaml_path.hpp"

namespace ganglion::dsl::detail {

namespace {

// Argo's RecreateStrategyEventSources: types that run active-passive.
constexpr std::array<std::string_view, 19> recreate_types{
  "amqp",  "calendar", "kafka", "pubSub", "azureEventsHub", "azureServiceBus", "nats",
  "mqtt",  "minio",    "emitter", "nsq",  "pulsar",         "redis",           "redisStream",
  "resource", "hdfs",  "file",  "sftp", "generic"};

std::optional<unsigned> parse_port(const std::string& text) {
  unsigned value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc{} || end != text.data() + text.size() || value < 1 || value > 65535)
    return std::nullopt;
  return value;
}

void validate_webhook(const std::map<std::string, webhook_event>& events, const load_context& cx) {
  std::map<std::pair<std::string, std::string>, std::string> routes;
  for (const auto& [name, w] : events) {
    auto at = child_path("spec.webhook", name);
    if (require(w.endpoint, child_path(at, "endpoint"), "endpoint", cx)
        && w.endpoint.front() != '/')
      cx.error(child_path(at, "endpoint"), "endpoint must start with \"/\", got \"" + w.endpoint
                                             + "\"");
    std::optional<unsigned> port;
    if (require(w.port, child_path(at, "port"), "port", cx)) {
      port = parse_port(w.port);
      if (!port)
        cx.error(child_path(at, "port"), "port must be a number from 1 to 65535, got \"" + w.port
                                           + "\"");
    }
    require(w.method, child_path(at, "method"), "method", cx);
    if (w.server_cert_secret.has_value() != w.server_key_secret.has_value())
      cx.error(child_path(at, w.server_cert_secret ? "serverCertSecret" : "serverKeySecret"),
               "TLS needs both serverCertSecret and serverKeySecret");
    if (w.max_payload_size <= 0)
      cx.error(child_path(at, "maxPayloadSize"), "maxPayloadSize must be positive");
    if (port && !w.endpoint.empty()) {
      auto key = std::make_pair(std::to_string(*port), w.endpoint);
      if (auto [it, fresh] = routes.emplace(key, name); !fresh)
        cx.error(child_path(at, "endpoint"), "endpoint " + w.endpoint + " on port " + key.first
                                               + " is also used by event \"" + it->second + "\"");
    }
  }
}

void validate_exclusion_dates(const std::vector<std::string>& dates, const std::string& path,
                              const load_context& cx) {
  for (std::size_t i = 0; i < dates.size(); ++i) {
    const auto& d = dates[i];
    auto at = item_path(path, i);
    constexpr std::string_view prefix = "EXDATE:";
    if (!std::string_view{d}.starts_with(prefix)) {
      cx.warning(at, "ignored: an exclusion date must look like EXDATE:20060102T150405Z");
      continue;
    }
    std::string_view rest = std::string_view{d}.substr(prefix.size());
    for (;;) {
      auto comma = rest.find(',');
      auto one = rest.substr(0, comma);
      // 20060102T150405Z
      bool ok = one.size() == 16 && one[8] == 'T' && one[15] == 'Z';
      for (std::size_t k = 0; ok && k < 15; ++k)
        if (k != 8 && (one[k] < '0' || one[k] > '9'))
          ok = false;
      if (ok) {
        auto num = [&](std::size_t pos, std::size_t len) {
          return std::stoi(std::string{one.substr(pos, len)});
        };
        auto date = std::chrono::year{num(0, 4)} / std::chrono::month{unsigned(num(4, 2))}
                    / std::chrono::day{unsigned(num(6, 2))};
        ok = date.ok() && num(9, 2) <= 23 && num(11, 2) <= 59 && num(13, 2) <= 59;
      }
      if (!ok) {
        cx.error(at, "invalid exclusion date \"" + std::string{one}
                       + "\" (expected 20060102T150405Z)");
        break;
      }
      if (comma == std::string_view::npos)
        break;
      rest.remove_prefix(comma + 1);
    }
  }
}

void validate_calendar(const std::map<std::string, calendar_event>& events,
                       const load_context& cx) {
  for (const auto& [name, c] : events) {
    auto at = child_path("spec.calendar", name);
    if (c.schedule.empty() && c.interval.empty())
      cx.error(at, "a calendar event needs a schedule or an interval");
    if (!c.schedule.empty()) {
      try {
        cron_schedule::parse(c.schedule);
      } catch (const compile_error& e) {
        cx.error(child_path(at, "schedule"),
                 "invalid cron schedule \"" + c.schedule + "\": " + e.what());
      }
      if (!c.interval.empty())
        cx.warning(child_path(at, "interval"), "ignored: schedule takes precedence over interval");
    } else if (!c.interval.empty() && !parse_go_duration(c.interval)) {
      cx.error(child_path(at, "interval"),
               "invalid interval \"" + c.interval + "\" (a Go duration such as 10s or 1h30m)");
    }
    if (!time_zone_exists(c.timezone))
      cx.error(child_path(at, "timezone"), "unknown time zone \"" + c.timezone + "\"");
    validate_exclusion_dates(c.exclusion_dates, child_path(at, "exclusionDates"), cx);
    if (c.persistence && !c.persistence->catchup_max_duration.empty()
        && !parse_go_duration(c.persistence->catchup_max_duration))
      cx.error(child_path(child_path(child_path(at, "persistence"), "catchup"), "maxDuration"),
               "invalid duration \"" + c.persistence->catchup_max_duration + "\"");
  }
}

void validate_event_names(const event_source& source, const load_context& cx) {
  std::map<std::string, std::string> seen;
  auto check = [&](const std::string& type, const std::string& name) {
    auto at = child_path(child_path("spec", type), name);
    if (auto [it, fresh] = seen.emplace(name, at); !fresh)
      cx.error(at, "event name \"" + name + "\" is also used by " + it->second
                     + " (names must be unique in an EventSource)");
  };
  for (const auto& [name, _] : source.spec.webhook)
    check("webhook", name);
  for (const auto& [name, _] : source.spec.calendar)
    check("calendar", name);
  for (const auto& [name, _] : source.spec.kafka)
    check("kafka", name);
  for (const auto& [name, _] : source.spec.nats)
    check("nats", name);
  for (const auto& e : source.spec.unmodelled)
    check(e.type, e.name);
}

void validate_strategies(const event_source& source, const load_context& cx) {
  std::vector<std::string> types;
  if (!source.spec.webhook.empty())
    types.push_back("webhook");
  if (!source.spec.calendar.empty())
    types.push_back("calendar");
  if (!source.spec.kafka.empty())
    types.push_back("kafka");
  if (!source.spec.nats.empty())
    types.push_back("nats");
  for (const auto& e : source.spec.unmodelled)
    if (std::find(types.begin(), types.end(), e.type) == types.end())
      types.push_back(e.type);
  std::string recreate;
  std::string rolling;
  for (const auto& t : types) {
    bool is_recreate
      = std::find(recreate_types.begin(), recreate_types.end(), t) != recreate_types.end();
    (is_recreate ? recreate : rolling) = t;
  }
  if (types.empty())
    cx.warning("spec", "the EventSource defines no event");
  else if (!recreate.empty() && !rolling.empty())
    cx.error("spec", "an EventSource cannot mix " + recreate + " (active-passive) with " + rolling
                       + " (active-active) events; split it in two");
}

/// Compiles `filter.expression` of each event with the expression compiler the source uses.
void validate_source_filters(const event_source& source, const load_context& cx) {
  auto check = [&](const std::string& type, const std::string& name,
                   const std::optional<event_source_filter>& filter) {
    if (filter && !filter->expression.empty())
      check_expression(filter->expression,
                       child_path(child_path(child_path(child_path("spec", type), name), "filter"),
                                  "expression"),
                       cx);
  };
  for (const auto& [name, e] : source.spec.webhook)
    check("webhook", name, e.filter);
  for (const auto& [name, e] : source.spec.calendar)
    check("calendar", name, e.filter);
  for (const auto& [name, e] : source.spec.kafka)
    check("kafka", name, e.filter);
  for (const auto& [name, e] : source.spec.nats)
    check("nats", name, e.filter);
  for (const auto& e : source.spec.unmodelled) {
    auto spec = nlohmann::json::parse(e.json, nullptr, false);
    if (has(spec, "filter") && has(spec["filter"], "expression"))
      check(e.type, e.name, event_source_filter{text(spec["filter"], "expression")});
  }
}

} // namespace

void validate_event_source(const event_source& source, const load_context& cx) {
  validate_webhook(source.spec.webhook, cx);
  validate_calendar(source.spec.calendar, cx);
  validate_kafka_events(source.spec.kafka, cx);
  validate_nats_events(source.spec.nats, cx);
  for (const auto& e : source.spec.unmodelled)
    validate_unmodelled_source(e, child_path(child_path("spec", e.type), e.name), cx);
  validate_source_filters(source, cx);
  validate_event_names(source, cx);
  validate_strategies(source, cx);
}

} // namespace ganglion::dsl::detail
