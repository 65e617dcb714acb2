#pragma once

// What the unit tests of a whole engine share: a manifest of webhook events a, b, c and one
// sensor `s`, and publishing into the engine through the bus publisher a test source got.

#include <future>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "ganglion/core/bus.hpp"

namespace ganglion::test {

/// One trigger: `name` fires on `condition`.
struct trigger_spec {
  std::string name;
  std::string condition;
};

/// A webhook source `hooks` with events a, b, c and sensor `s` over `dependencies` (names of
/// events), with http `triggers` to `http://127.0.0.1:9/<name><url_tail>`.
inline std::string hooks_manifest(const std::vector<std::string>& dependencies,
                                  const std::vector<trigger_spec>& triggers,
                                  const std::string& url_tail = "") {
  std::string text = R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: hooks}
spec:
  webhook:
    a: {port: "12000", endpoint: /a, method: POST}
    b: {port: "12000", endpoint: /b, method: POST}
    c: {port: "12000", endpoint: /c, method: POST}
---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata: {name: s}
spec:
  dependencies:
)";
  for (const auto& d : dependencies)
    text += fmt::format("    - {{name: {0}, eventSourceName: hooks, eventName: {0}}}\n", d);
  text += "  triggers:\n";
  for (const auto& t : triggers)
    text += fmt::format("    - template:\n        name: {}\n        conditions: \"{}\"\n"
                        "        http: {{url: \"http://127.0.0.1:9/{}{}\"}}\n",
                        t.name, t.condition, t.name, url_tail);
  return text;
}

/// Publishes an event of `hooks/<event>` with `data` through `bus`; true once it accepted it.
inline bool publish_hook(core::bus_publisher& bus, const std::string& event,
                         const std::string& data) {
  core::event e;
  e.id = core::new_event_id();
  e.source = "hooks";
  e.subject = event;
  e.type = "webhook";
  e.time = core::now_rfc3339();
  e.data = data;
  std::promise<core::publish_status> result;
  bus.publish(std::move(e), [&](core::publish_status status, const std::string&) {
    result.set_value(status);
  });
  return result.get_future().get() == core::publish_status::accepted;
}

} // namespace ganglion::test
