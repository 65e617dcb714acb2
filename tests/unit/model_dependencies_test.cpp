// Sensor dependencies that no loaded EventSource serves: one located warning per dependency,
// with a "did you mean", as `validate` and `run` report them (dsl::unresolved_dependencies).

#include <gtest/gtest.h>

#include "ganglion/dsl/dependencies.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

namespace {

const std::string hooks = R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: hooks
spec:
  webhook:
    example:
      port: "12000"
      endpoint: /example
      method: POST
---
)";

/// A Sensor `s` with a dependency per (eventSourceName, eventName) of `deps`, named d0, d1 …
std::string sensor_on(const std::vector<std::pair<std::string, std::string>>& deps) {
  std::string out = "apiVersion: argoproj.io/v1alpha1\nkind: Sensor\nmetadata:\n  name: s\n"
                    "spec:\n  dependencies:\n";
  for (std::size_t i = 0; i < deps.size(); ++i)
    out += "    - name: d" + std::to_string(i) + "\n      eventSourceName: " + deps[i].first
           + "\n      eventName: " + deps[i].second + "\n";
  return out + "  triggers:\n    - template:\n        name: t\n        log: {}\n";
}

/// `r` with the unresolved dependencies of its documents as its only diagnostics.
load_result unresolved(const std::string& yaml) {
  auto r = load(yaml);
  EXPECT_TRUE(clean(r)) << dump(r);
  r.diagnostics = unresolved_dependencies(r.documents);
  return r;
}

} // namespace

TEST(model_dependencies, a_served_dependency_is_no_warning) {
  EXPECT_TRUE(unresolved(hooks + sensor_on({{"hooks", "example"}})).diagnostics.empty());
}

TEST(model_dependencies, an_unknown_event_source_is_a_warning_at_its_name_with_did_you_mean) {
  auto yaml = hooks + sensor_on({{"hoks", "example"}});
  auto r = unresolved(yaml);
  ASSERT_EQ(r.diagnostics.size(), 1u) << dump(r);
  EXPECT_TRUE(has_diagnostic(r, "spec.dependencies[0].eventSourceName",
                             position_of(yaml, "eventSourceName: hoks"),
                             "no loaded EventSource is named \"hoks\"; did you mean \"hooks\"? "
                             "(a warning even with --strict: it may be defined in files not "
                             "loaded here or in the cluster)",
                             severity::warning));
}

TEST(model_dependencies, an_unknown_event_of_a_loaded_source_is_a_warning_at_its_event_name) {
  auto yaml = hooks + sensor_on({{"hooks", "exmple"}});
  auto r = unresolved(yaml);
  ASSERT_EQ(r.diagnostics.size(), 1u) << dump(r);
  EXPECT_TRUE(has_diagnostic(r, "spec.dependencies[0].eventName",
                             position_of(yaml, "eventName: exmple"),
                             "EventSource \"hooks\" defines no event \"exmple\"; did you mean "
                             "\"example\"?",
                             severity::warning));
}

TEST(model_dependencies, without_any_event_source_each_dependency_warns_once_without_a_guess) {
  auto r = unresolved(sensor_on({{"hooks", "example"}, {"other", "x"}}));
  ASSERT_EQ(r.diagnostics.size(), 2u) << dump(r);
  EXPECT_EQ(r.diagnostics[0].path, "spec.dependencies[0].eventSourceName");
  EXPECT_EQ(r.diagnostics[1].path, "spec.dependencies[1].eventSourceName");
  for (const auto& d : r.diagnostics) {
    EXPECT_EQ(d.level, severity::warning);
    EXPECT_EQ(d.message.find("did you mean"), std::string::npos) << d.message;
  }
}

TEST(model_dependencies, a_name_far_from_every_loaded_one_gets_no_guess) {
  auto r = unresolved(hooks + sensor_on({{"calendar", "example"}}));
  ASSERT_EQ(r.diagnostics.size(), 1u) << dump(r);
  EXPECT_EQ(r.diagnostics[0].message.find("did you mean"), std::string::npos)
    << r.diagnostics[0].message;
}

TEST(model_dependencies, a_missing_name_is_left_to_the_sensor_rules) {
  auto r = load(hooks
                + "apiVersion: argoproj.io/v1alpha1\nkind: Sensor\nmetadata:\n  name: s\n"
                  "spec:\n  dependencies:\n    - {name: d, eventName: example}\n"
                  "  triggers:\n    - template: {name: t, log: {}}\n");
  EXPECT_TRUE(has_errors(r.diagnostics)) << dump(r);
  EXPECT_TRUE(unresolved_dependencies(r.documents).empty());
}

TEST(model_dependencies, an_event_source_of_another_namespace_does_not_serve_a_sensor) {
  auto in = [](const std::string& yaml, const std::string& ns) {
    auto at = yaml.find("metadata:\n");
    return yaml.substr(0, at + 10) + "  namespace: " + ns + "\n" + yaml.substr(at + 10);
  };
  auto sensor = sensor_on({{"hooks", "example"}});
  auto other = unresolved(in(hooks, "team-b") + in(sensor, "team-a"));
  ASSERT_EQ(other.diagnostics.size(), 1u) << dump(other);
  EXPECT_NE(other.diagnostics[0].message.find(
              "no loaded EventSource of namespace team-a is named \"hooks\""),
            std::string::npos)
    << other.diagnostics[0].message;
  EXPECT_TRUE(unresolved(in(hooks, "team-a") + in(sensor, "team-a")).diagnostics.empty());
  EXPECT_TRUE(unresolved(hooks + in(sensor, "team-a")).diagnostics.empty())
    << "an EventSource that names no namespace serves every namespace";
  EXPECT_TRUE(unresolved(in(hooks, "team-b") + sensor).diagnostics.empty())
    << "a Sensor that names none is served by every namespace";
}
