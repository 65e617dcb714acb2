// A calendar with `persistence.configMap` under `ganglion run --from-cluster`, against the test
// Kubernetes API server: the last tick lives where Argo keeps it (ConfigMap `data`, key
// `<eventSourceName>.<eventName>`, Argo's value), so a user moving from Argo catches up from the
// value Argo wrote; a ConfigMap that is missing without createIfNotExist is a clear error.

#include <chrono>

#include <fmt/chrono.h>
#include <nlohmann/json.hpp>

#include "cluster_options.hpp"
#include "engine_process.hpp"
#include "files.hpp"
#include "http_sink.hpp"
#include "kube/api_server.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

/// EventSource `clock`: calendar event `example`, every second, kept in ConfigMap
/// `calendar-state` with catch-up.
json calendar_source(bool create) {
  json persistence{{"catchup", {{"enabled", true}}},
                   {"configMap", {{"name", "calendar-state"}, {"createIfNotExist", create}}}};
  return {{"apiVersion", "argoproj.io/v1alpha1"},
          {"kind", "EventSource"},
          {"metadata", {{"name", "clock"}, {"namespace", "default"}}},
          {"spec", {{"calendar", {{"example", {{"interval", "1s"}, {"persistence", persistence}}}}}}}};
}

/// Sensor `s`: POSTs each tick's eventTime to `url`.
json tick_sensor(const std::string& url) {
  return e2e::posting_sensor({.name = "s",
                              .event_source = "clock",
                              .url = url,
                              .data_key = "eventTime",
                              .dest = "eventTime"});
}

/// A UTC time as Go's Time.String() writes it (whole seconds), with the monotonic suffix Argo's
/// stored values carry.
std::string go_time(std::chrono::sys_seconds t, bool monotonic_suffix) {
  return fmt::format("{:%Y-%m-%d %H:%M:%S} +0000 UTC{}", t,
                     monotonic_suffix ? " m=+683.567066901" : "");
}

/// The eventTimes the sink received, in arrival order.
std::vector<std::string> event_times(const test::http_sink& sink) {
  std::vector<std::string> out;
  for (const auto& r : sink.requests())
    out.push_back(json::parse(r.body).value("eventTime", ""));
  return out;
}

} // namespace

TEST(e2e_kubernetes_calendar, catches_up_from_the_value_argo_kept_in_the_config_map) {
  test::kube::api_server server;
  test::http_sink sink;
  auto now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
  auto last = now - 4s;
  // What Argo's calendar wrote: CalendarEventData of its last tick, key <es>.<event>.
  json argo_value{{"eventTime", go_time(last, true)}, {"metadata", nullptr}};
  server.put({{"apiVersion", "v1"},
              {"kind", "ConfigMap"},
              {"metadata", {{"name", "calendar-state"}, {"namespace", "default"}}},
              {"data", {{"clock.example", argo_value.dump()}, {"other.event", "kept"}}}});
  server.put(calendar_source(false));
  server.put(tick_sensor(sink.url("/tick")));
  e2e::engine_process engine{"", e2e::from_cluster(server)};

  ASSERT_TRUE(sink.wait_for(6, 20s)) << engine.output();
  auto times = event_times(sink);
  // The missed ticks first, in order, each with its own eventTime: none before or at `last`.
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(times[static_cast<std::size_t>(i)], go_time(last + std::chrono::seconds(i + 1), false))
      << engine.output();

  // Each tick is kept in the ConfigMap as Argo keeps it (same-layout UTC times compare as
  // text); the other key is left alone.
  auto kept = server.wait_for_object("v1", "ConfigMap", "default", "calendar-state",
                                     [&](const json& map) {
                                       auto value = json::parse(
                                         map["data"].value("clock.example", "{}"), nullptr, false);
                                       return value.is_object()
                                              && value.value("eventTime", "") >= times[5];
                                     });
  ASSERT_TRUE(kept) << server.get("v1", "ConfigMap", "default", "calendar-state")->dump()
                    << engine.output();
  EXPECT_EQ((*kept)["data"]["other.event"], "kept");
  EXPECT_TRUE(server.wait_for_request([](const test::kube::request_record& r) {
    return r.method == "PATCH" && r.target == "/api/v1/namespaces/default/configmaps/calendar-state"
           && r.content_type.starts_with("application/merge-patch+json");
  }));
}

TEST(e2e_kubernetes_calendar, a_missing_config_map_without_create_if_not_exist_says_so) {
  test::kube::api_server server;
  test::http_sink sink;
  server.put(calendar_source(false));
  server.put(tick_sensor(sink.url("/tick")));
  auto options = e2e::from_cluster(server);
  options.wait_ready = false; // a source that cannot start keeps /ready at 503
  e2e::engine_process engine{"", options};

  EXPECT_TRUE(test::eventually([&] {
    return engine.output().find("does not exist and createIfNotExist is false: create it, or "
                                "set persistence.configMap.createIfNotExist: true")
           != std::string::npos;
  })) << engine.output();
  EXPECT_TRUE(sink.requests().empty());
  EXPECT_FALSE(server.get("v1", "ConfigMap", "default", "calendar-state"));
}

TEST(e2e_kubernetes_calendar, create_if_not_exist_makes_the_config_map_and_keeps_each_tick) {
  test::kube::api_server server;
  test::http_sink sink;
  server.put(calendar_source(true));
  server.put(tick_sensor(sink.url("/tick")));
  e2e::engine_process engine{"", e2e::from_cluster(server)};

  ASSERT_TRUE(sink.wait_for(2, 10s)) << engine.output();
  auto second = event_times(sink)[1];
  EXPECT_TRUE(server.wait_for_object("v1", "ConfigMap", "default", "calendar-state",
                                     [&](const json& map) {
                                       return map.contains("data")
                                              && map["data"].value("clock.example", "").find(
                                                   second)
                                                   != std::string::npos;
                                     }))
    << engine.output();
}
