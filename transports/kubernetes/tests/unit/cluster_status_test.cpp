// Cluster mode's conditions: Argo's condition types of each kind, in Argo's order, True for a
// valid running object, False with Argo's reasons and `path: message` for an invalid one.

#include <gtest/gtest.h>

#include "ganglion/kubernetes/cluster_status.hpp"

using namespace ganglion::kubernetes;

namespace {

std::vector<std::string> types(const std::vector<condition>& conditions) {
  std::vector<std::string> out;
  for (const auto& c : conditions)
    out.push_back(c.type + "=" + c.status);
  return out;
}

} // namespace

TEST(kubernetes_cluster_conditions, valid_running_objects_are_true) {
  EXPECT_EQ(types(conditions_of("EventSource", {})),
            (std::vector<std::string>{"SourcesProvided=True", "Deployed=True"}));
  EXPECT_EQ(types(conditions_of("Sensor", {})),
            (std::vector<std::string>{"DependenciesProvided=True", "TriggersProvided=True",
                                      "Deployed=True"}));
  EXPECT_EQ(types(conditions_of("EventBus", {})),
            (std::vector<std::string>{"Configured=True", "Deployed=True"}));
}

TEST(kubernetes_cluster_conditions, an_invalid_trigger_is_invalid_triggers_with_its_path) {
  auto c = conditions_of("Sensor", {"spec.triggers[0].template.http.url", "url is required", ""});
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(c[0], (condition{"DependenciesProvided", "True"}));
  EXPECT_EQ(c[1], (condition{"TriggersProvided", "False", "InvalidTriggers",
                             "spec.triggers[0].template.http.url: url is required"}));
  EXPECT_EQ(c[2].status, "False");
  EXPECT_EQ(c[2].reason, "InvalidSpec");
}

TEST(kubernetes_cluster_conditions, invalid_dependencies_leave_triggers_unknown_as_argo_does) {
  auto c = conditions_of("Sensor", {"spec.dependencies[0].eventName", "is required", ""});
  EXPECT_EQ(c[0], (condition{"DependenciesProvided", "False", "InvalidDependencies",
                             "spec.dependencies[0].eventName: is required"}));
  EXPECT_EQ(c[1], (condition{"TriggersProvided", "Unknown"}));
}

TEST(kubernetes_cluster_conditions, event_source_and_bus_reasons_are_argos) {
  auto es = conditions_of("EventSource", {"spec.webhook.a.port", "bad port", ""});
  EXPECT_EQ(es[0], (condition{"SourcesProvided", "False", "InvalidEventSource",
                              "spec.webhook.a.port: bad port"}));
  auto bus = conditions_of("EventBus", {"spec", "no bus", ""});
  EXPECT_EQ(bus[0], (condition{"Configured", "False", "InvalidSpec", "spec: no bus"}));
}

TEST(kubernetes_cluster_conditions, a_valid_object_that_does_not_run_is_not_deployed) {
  auto c = conditions_of("EventSource", {"", "", "source hooks/a: Error: port in use"});
  EXPECT_EQ(c[0].status, "True");
  EXPECT_EQ(c[1],
            (condition{"Deployed", "False", "NotRunning", "source hooks/a: Error: port in use"}));
}
