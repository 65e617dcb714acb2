#pragma once

// Helpers of the hot-reload e2e tests: manifests the tests rewrite, an engine on one manifest
// file, and reading what the sink received.

#include <string>
#include <vector>

#include "engine_process.hpp"

namespace ganglion::e2e::reload {

using namespace std::chrono_literals;

/// What the manifests under test contain.
struct manifest_set {
  std::uint16_t port = 0;
  std::string sink; ///< base URL of the HTTP sink
  std::string filter_value = "x";
  bool extra_sensor = true;
  bool event_d = false;
  bool invalid = false;
};

inline std::string dependency(const std::string& name, const std::string& extra = {}) {
  return fmt::format("    - name: {0}\n      eventSourceName: hooks\n      eventName: {0}\n{1}",
                     name, extra);
}

inline std::string sensor(const std::string& name, const std::string& deps,
                          const std::string& trigger, const std::string& conditions,
                          const std::string& url,
                          const std::vector<std::pair<std::string, std::string>>& payload) {
  auto out = fmt::format(R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: {}
spec:
  dependencies:
{}  triggers:
    - template:
        name: {}
)",
                         name, deps, trigger);
  if (!conditions.empty())
    out += fmt::format("        conditions: \"{}\"\n", conditions);
  out += fmt::format(
    "        http:\n          url: {}\n          method: POST\n          payload:\n",
                     url);
  for (const auto& [dep, dest] : payload)
    out += fmt::format("            - src:\n                dependencyName: {}\n"
                       "                dataKey: body.v\n              dest: {}\n",
                       dep, dest);
  return out;
}

/// An EventSource `hooks` (events a, b, c, maybe d); sensor `joiner` (a && b, never changed
/// by the tests); sensor `filtered` (c whose body.v equals the filter value); maybe sensor
/// `extra` (every c) and sensor `dee` (d).
inline std::string manifests(const manifest_set& m) {
  std::vector<std::string> events{"a", "b", "c"};
  if (m.event_d)
    events.push_back("d");
  auto out = e2e::webhook_source("hooks", m.port, events);
  out += sensor("joiner", dependency("a") + dependency("b"), "join", "a && b", m.sink + "/join",
                {{"a", "a"}, {"b", "b"}});
  auto filter = fmt::format("      filters:\n        data:\n          - path: body.v\n"
                            "            type: {}\n            value: [\"{}\"]\n",
                            m.invalid ? "bogus" : "string", m.filter_value);
  out += sensor("filtered", dependency("c", filter), "pass", "", m.sink + "/filtered",
                {{"c", "v"}});
  if (m.extra_sensor)
    out += sensor("extra", dependency("c"), "all", "", m.sink + "/extra", {{"c", "v"}});
  if (m.event_d)
    out += sensor("dee", dependency("d"), "dee", "", m.sink + "/dee", {{"d", "v"}});
  return out;
}

/// `ganglion run` on manifests(m), with or without the file watch; edit() rewrites them.
class reloading_engine : public engine_process {
public:
  /// Starts on manifests(m); `watch` false adds --no-watch.
  reloading_engine(const manifest_set& m, bool watch)
    : engine_process(manifests(m), options(watch)) {}

  /// Replaces the manifest file with manifests(m), renamed over it.
  void edit(const manifest_set& m) { write(manifests(m)); }

private:
  static engine_options options(bool watch) {
    engine_options out;
    out.watch = watch;
    return out;
  }
};

inline std::size_t count(const test::http_sink& sink, const std::string& target) {
  std::size_t n = 0;
  for (const auto& r : sink.requests())
    n += r.target == target;
  return n;
}

/// Waits until the sink received `n` requests for `target`.
inline bool wait_count(const test::http_sink& sink, const std::string& target, std::size_t n) {
  return test::eventually([&] { return count(sink, target) >= n; });
}

inline std::string body_of(const test::http_sink& sink, const std::string& target,
                           std::size_t index) {
  std::size_t seen = 0;
  for (const auto& r : sink.requests())
    if (r.target == target && seen++ == index)
      return r.body;
  return {};
}

inline test::http_response post_v(std::uint16_t port, const std::string& event,
                                  const std::string& v) {
  return e2e::post(port, event, fmt::format(R"({{"v":"{}"}})", v));
}

/// The issue's scenario: while sensor joiner holds event a of its join a && b, sensor filtered
/// changes its filter from x to y. The join still fires with that a (joiner is not touched),
/// filtered applies the new filter, and an invalid edit is refused while the old set runs.
/// `reload` applies the edit the way the test is about; `expect_applied` tells it whether the
/// edit is valid.

} // namespace ganglion::e2e::reload
