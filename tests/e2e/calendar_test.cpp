// The calendar source through the binary, on the durable embedded bus: catch-up from the last
// tick kept in the data directory across a daylight-saving change (the real 2026 transitions
// of New York, long past, so no clock needs faking), and a restart that neither repeats nor
// skips a tick.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <set>

#include "engine_process.hpp"
#include "files.hpp"
#include "http_sink.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// An EventSource `clock` with `events` (YAML under `calendar:`) and a Sensor that POSTs each
/// event's eventTime to `<sink>/<event>`.
std::string calendar_manifests(const std::string& events, const std::vector<std::string>& names,
                               const std::string& sink) {
  std::string out = "apiVersion: argoproj.io/v1alpha1\nkind: EventSource\nmetadata:\n  name: "
                    "clock\nspec:\n  calendar:\n" + events +
                    "---\napiVersion: argoproj.io/v1alpha1\nkind: Sensor\nmetadata:\n  name: "
                    "s\nspec:\n  dependencies:\n";
  for (const auto& n : names)
    out += fmt::format("    - {{name: {0}, eventSourceName: clock, eventName: {0}}}\n", n);
  out += "  triggers:\n";
  for (const auto& n : names)
    out += fmt::format(R"(    - template:
        name: {0}
        conditions: {0}
        http:
          url: {1}/{0}
          method: POST
          payload:
            - src: {{dependencyName: {0}, dataKey: eventTime}}
              dest: eventTime
)",
                       n, sink);
  return out;
}

/// The eventTimes POSTed to `path`, in arrival order.
std::vector<std::string> times_at(const test::http_sink& sink, const std::string& path) {
  std::vector<std::string> out;
  for (const auto& r : sink.requests())
    if (r.target == path) {
      auto from = r.body.find(R"("eventTime":")") + 13;
      out.push_back(r.body.substr(from, r.body.find('"', from) - from));
    }
  return out;
}

/// A UTC eventTime (`2026-12-05 12:00:01 +0000 UTC`) as seconds since the epoch.
std::chrono::sys_seconds utc_seconds(const std::string& text) {
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  EXPECT_EQ(std::sscanf(text.c_str(), "%d-%d-%d %d:%d:%d +0000 UTC", &y, &mo, &d, &h, &mi, &s), 6)
    << text;
  return std::chrono::sys_days{std::chrono::year{y} / mo / d} + std::chrono::hours{h} +
         std::chrono::minutes{mi} + std::chrono::seconds{s};
}

} // namespace

TEST(calendar, catchup_across_daylight_saving_changes_fires_as_argo_does) {
  test::http_sink sink;
  e2e::engine_options options;
  options.data_dir = test::temp_dir();
  options.start_now = false;
  // The last ticks as Argo's ConfigMap would hold them, before New York's 2026 transitions.
  test::write_file(options.data_dir + "/sources/calendar.clock.fall",
                   R"({"eventTime":"2026-10-31 12:00:00 -0400 EDT"})");
  test::write_file(options.data_dir + "/sources/calendar.clock.spring",
                   R"({"eventTime":"2026-03-07 12:00:00 -0500 EST m=+1.000000001"})");
  auto events = R"(    fall:
      schedule: "30 1 1 11 *"
      timezone: America/New_York
      persistence:
        catchup: {enabled: true}
        configMap: {name: calendar-state, createIfNotExist: true}
    spring:
      schedule: "30 2 8 3 *"
      timezone: America/New_York
      persistence:
        catchup: {enabled: true}
)";
  e2e::engine_process engine{calendar_manifests(events, {"fall", "spring"}, sink.url("")),
                             options};
  engine.start();
  // 2026-11-01 01:30 happens twice in New York (fall back) and robfig fires both.
  ASSERT_TRUE(test::eventually([&] { return times_at(sink, "/fall").size() >= 2; }, 15s))
    << engine.output();
  auto fall = times_at(sink, "/fall");
  std::set<std::string> got{fall.begin(), fall.end()};
  EXPECT_TRUE(got.count("2026-11-01 01:30:00 -0400 EDT")) << engine.output();
  EXPECT_TRUE(got.count("2026-11-01 01:30:00 -0500 EST")) << engine.output();
  // 2026-03-08 02:30 never happened there (spring forward): nothing to catch up until 2027.
  ASSERT_TRUE(engine.wait_idle(2));
  EXPECT_TRUE(times_at(sink, "/spring").empty());
  // The last tick kept is Argo's event data, in the data directory.
  EXPECT_NE(test::read_file(options.data_dir + "/sources/calendar.clock.fall")
              .find(R"({"eventTime":"2026-11-01 01:30:00 -0500 EST"})"),
            std::string::npos);
  engine.stop();
}

TEST(calendar, a_restart_neither_repeats_nor_skips_a_tick) {
  test::http_sink sink;
  auto events = R"(    tick:
      interval: 1s
      persistence:
        catchup: {enabled: true, maxDuration: 1m}
)";
  e2e::engine_process engine{calendar_manifests(events, {"tick"}, sink.url("")),
                             e2e::engine_options{}};
  ASSERT_TRUE(test::eventually([&] { return times_at(sink, "/tick").size() >= 2; }, 15s))
    << engine.output();
  engine.stop();
  auto before = times_at(sink, "/tick").size();
  engine.start();
  ASSERT_TRUE(test::eventually([&] { return times_at(sink, "/tick").size() >= before + 3; }, 15s))
    << engine.output();
  engine.stop();
  std::vector<std::chrono::sys_seconds> ticks;
  for (const auto& t : times_at(sink, "/tick"))
    ticks.push_back(utc_seconds(t));
  std::sort(ticks.begin(), ticks.end());
  for (std::size_t i = 1; i < ticks.size(); ++i)
    EXPECT_EQ(ticks[i] - ticks[i - 1], 1s) << "tick " << i << "\n" << engine.output();
}
