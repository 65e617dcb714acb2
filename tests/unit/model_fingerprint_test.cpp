// The fingerprints a hot reload compares: one per part of a spec, equal for equal parts.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using ganglion::dsl::testing::dump;
using ganglion::dsl::testing::load;

namespace {

const std::string source_yaml = R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: hooks
spec:
  eventBusName: default
  webhook:
    a:
      port: "12000"
      endpoint: /a
      method: POST
    b:
      port: "12000"
      endpoint: /b
      method: POST
)";

const std::string sensor_yaml = R"(apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: s
spec:
  dependencies:
    - name: a
      eventSourceName: hooks
      eventName: a
      filters:
        data:
          - path: body.x
            type: string
            value: ["1"]
    - name: b
      eventSourceName: hooks
      eventName: b
  triggers:
    - template:
        name: t1
        conditions: "a && b"
        log: {}
      retryStrategy:
        steps: 3
    - template:
        name: t2
        log: {}
)";

std::map<std::string, std::string> fingerprints_of(const std::string& yaml) {
  auto r = load(yaml);
  EXPECT_FALSE(has_errors(r.diagnostics)) << dump(r);
  EXPECT_EQ(r.documents.size(), 1u);
  return r.documents.empty() ? std::map<std::string, std::string>{}
                             : r.documents.front().fingerprints;
}

std::vector<std::string> keys(const std::map<std::string, std::string>& m) {
  std::vector<std::string> out;
  for (const auto& [k, v] : m)
    out.push_back(k);
  return out;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

/// A fingerprint is a 128-bit digest in hex.
bool is_digest(const std::string& text) {
  return text.size() == 32
         && text.find_first_not_of("0123456789abcdef") == std::string::npos;
}

} // namespace

TEST(model_fingerprint, event_source_has_one_per_event_and_one_for_the_rest) {
  auto f = fingerprints_of(source_yaml);
  EXPECT_EQ(keys(f), (std::vector<std::string>{"event/a", "event/b", "eventsource"}));
  for (const auto& [key, digest] : f)
    EXPECT_TRUE(is_digest(digest)) << key << ": " << digest;
  EXPECT_NE(f["event/a"], f["event/b"]);
}

TEST(model_fingerprint, a_changed_event_changes_only_its_fingerprint) {
  auto before = fingerprints_of(source_yaml);
  auto after = fingerprints_of(replaced(source_yaml, "endpoint: /b", "endpoint: /bee"));
  EXPECT_EQ(before["event/a"], after["event/a"]);
  EXPECT_NE(before["event/b"], after["event/b"]);
  EXPECT_EQ(before["eventsource"], after["eventsource"]);
}

TEST(model_fingerprint, every_event_type_counts) {
  auto f = fingerprints_of(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: clock
spec:
  calendar:
    tick:
      interval: 10s
)");
  EXPECT_EQ(keys(f), (std::vector<std::string>{"event/tick", "eventsource"}));
  EXPECT_TRUE(is_digest(f["event/tick"])) << f["event/tick"];
}

TEST(model_fingerprint, spelling_does_not_matter) {
  auto before = fingerprints_of(source_yaml);
  auto respelled = replaced(source_yaml, R"(    a:
      port: "12000"
      endpoint: /a
      method: POST)",
                            R"(    a: {method: POST, endpoint: "/a", port: '12000'}  # same)");
  EXPECT_EQ(before, fingerprints_of(respelled));
}

TEST(model_fingerprint, sensor_has_one_per_dependency_and_trigger_and_one_for_the_rest) {
  auto f = fingerprints_of(sensor_yaml);
  EXPECT_EQ(keys(f), (std::vector<std::string>{"dependency/a", "dependency/b", "sensor",
                                               "trigger/t1", "trigger/t2"}));
  for (const auto& [key, digest] : f)
    EXPECT_TRUE(is_digest(digest)) << key << ": " << digest;
  EXPECT_NE(f["dependency/a"], f["dependency/b"]);
  EXPECT_NE(f["trigger/t1"], f["trigger/t2"]);
}

TEST(model_fingerprint, a_changed_filter_changes_only_its_dependency) {
  auto before = fingerprints_of(sensor_yaml);
  auto after = fingerprints_of(replaced(sensor_yaml, R"(value: ["1"])", R"(value: ["2"])"));
  EXPECT_NE(before["dependency/a"], after["dependency/a"]);
  EXPECT_EQ(before["dependency/b"], after["dependency/b"]);
  EXPECT_EQ(before["trigger/t1"], after["trigger/t1"]);
  EXPECT_EQ(before["trigger/t2"], after["trigger/t2"]);
  EXPECT_EQ(before["sensor"], after["sensor"]);
}

TEST(model_fingerprint, trigger_policy_fields_belong_to_the_trigger) {
  auto before = fingerprints_of(sensor_yaml);
  auto after = fingerprints_of(replaced(sensor_yaml, "steps: 3", "steps: 4"));
  EXPECT_NE(before["trigger/t1"], after["trigger/t1"]);
  EXPECT_EQ(before["trigger/t2"], after["trigger/t2"]);
  EXPECT_EQ(before["dependency/a"], after["dependency/a"]);
  EXPECT_EQ(before["sensor"], after["sensor"]);
}

TEST(model_fingerprint, the_rest_of_the_sensor_spec) {
  auto before = fingerprints_of(sensor_yaml);
  auto after = fingerprints_of(replaced(sensor_yaml, "  triggers:\n", "  replicas: 2\n  triggers:\n"));
  EXPECT_NE(before["sensor"], after["sensor"]);
  EXPECT_EQ(before["dependency/a"], after["dependency/a"]);
  EXPECT_EQ(before["trigger/t1"], after["trigger/t1"]);
}

TEST(model_fingerprint, event_bus_is_one_part) {
  auto f = fingerprints_of(R"(apiVersion: argoproj.io/v1alpha1
kind: EventBus
metadata:
  name: default
spec:
  jetstream:
    version: latest
)");
  EXPECT_EQ(keys(f), std::vector<std::string>{"eventbus"});
  EXPECT_TRUE(is_digest(f["eventbus"])) << f["eventbus"];
}

TEST(model_fingerprint, other_kinds_have_none) {
  auto r = load("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
  ASSERT_EQ(r.documents.size(), 1u);
  EXPECT_TRUE(r.documents.front().fingerprints.empty());
}
