// Rules of the resource source: Argo's resource validate.go, the label requirements its start
// builds, and ganglion's checks. Every diagnostic is checked at its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(resource_spec_rules, version_resource_and_event_types_are_required) {
  auto yaml = event_source_yaml("  resource:\n    r:\n      group: apps\n");
  auto r = load(yaml);
  const auto at = position_of(yaml, "r:\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.resource.r.version", at, "version is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.resource.r.resource", at, "resource is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.resource.r.eventTypes", at, "eventTypes is required"));
}

TEST(resource_spec_rules, event_types_are_add_update_or_delete) {
  auto yaml = event_source_yaml("  resource:\n    r:\n      version: v1\n      resource: pods\n"
                                "      eventTypes: [ADD, MODIFIED]\n"
                                "    e:\n      version: v1\n      resource: pods\n"
                                "      eventTypes: []\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.resource.r.eventTypes[1]", position_of(yaml, "MODIFIED"),
                             "unknown event type \"MODIFIED\" (ADD, UPDATE or DELETE)"));
  EXPECT_TRUE(has_diagnostic(r, "spec.resource.e.eventTypes", position_of(yaml, "eventTypes", 2),
                             "no change of the resource is reported", severity::warning));
}

TEST(resource_spec_rules, selectors_need_a_key_and_a_known_operation) {
  auto yaml = event_source_yaml(R"(  resource:
    r:
      version: v1
      resource: pods
      eventTypes: [ADD]
      filter:
        labels:
          - {operation: "=", value: a}
          - {key: app, operation: like, value: a}
        fields:
          - {key: metadata.name, operation: "~", value: a}
)");
  auto r = load(yaml);
  const std::string f = "spec.resource.r.filter";
  EXPECT_TRUE(has_diagnostic(r, f + ".labels[0].key", position_of(yaml, "{operation"),
                             "key is required"));
  EXPECT_TRUE(has_diagnostic(r, f + ".labels[1].operation", position_of(yaml, "operation: like"),
                             "unknown selection operation \"like\""));
  EXPECT_TRUE(has_diagnostic(r, f + ".fields[0].operation", position_of(yaml, "operation: \"~\""),
                             "unknown selection operation \"~\""));
}

TEST(resource_spec_rules, label_requirements_are_apimachinerys) {
  auto yaml = event_source_yaml(R"(  resource:
    r:
      version: v1
      resource: pods
      eventTypes: [ADD]
      filter:
        labels:
          - {key: "bad key", value: a}
          - {key: app, operation: exists, value: a}
          - {key: size, operation: gt, value: big}
          - {key: app, value: "not valid!"}
          - {key: example.com/app, operation: notin, value: "a,b"}
          - {key: app, operation: "!"}
)");
  auto r = load(yaml);
  const std::string l = "spec.resource.r.filter.labels";
  EXPECT_TRUE(has_diagnostic(r, l + "[0]", position_of(yaml, "{key: \"bad"),
                             "label key \"bad key\" is not a qualified name"));
  EXPECT_TRUE(has_diagnostic(r, l + "[1]", position_of(yaml, "{key: app, operation: exists"),
                             "values set must be empty for exists and does not exist"));
  EXPECT_TRUE(has_diagnostic(r, l + "[2]", position_of(yaml, "{key: size"),
                             "the value must be an integer"));
  EXPECT_TRUE(has_diagnostic(r, l + "[3]", position_of(yaml, "{key: app, value"),
                             "label value \"not valid!\" of \"app\" is not valid"));
  for (const auto& d : r.diagnostics)
    EXPECT_TRUE(d.path.find(l + "[4]") == std::string::npos
                && d.path.find(l + "[5]") == std::string::npos)
      << d.to_string();
}

TEST(resource_spec_rules, field_selectors_compile) {
  auto yaml = event_source_yaml(R"(  resource:
    r:
      version: v1
      resource: pods
      eventTypes: [ADD]
      filter:
        fields:
          - {key: metadata.name, operation: "==", value: "my-("}
          - {key: metadata.name, operation: in, value: a}
          - {key: spec.serviceAccountName, value: "^default$"}
)");
  auto r = load(yaml);
  const std::string f = "spec.resource.r.filter.fields";
  EXPECT_TRUE(has_diagnostic(r, f + "[0]", position_of(yaml, "{key: metadata.name, operation: \"=="),
                             "field value \"my-(\" is not a regular expression"));
  EXPECT_TRUE(has_diagnostic(r, f + "[1].operation", position_of(yaml, "operation: in"),
                             "fields support =, == and != only", severity::warning));
  for (const auto& d : r.diagnostics)
    EXPECT_EQ(d.path.find(f + "[2]"), std::string::npos) << d.to_string();
}

TEST(resource_spec_rules, created_by_is_an_rfc3339_time) {
  auto yaml = event_source_yaml("  resource:\n    r:\n      version: v1\n      resource: pods\n"
                                "      eventTypes: [ADD]\n"
                                "      filter: {createdBy: \"2019-04-06 12:52\"}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.resource.r.filter.createdBy", position_of(yaml, "createdBy"),
                             "createdBy must be an RFC 3339 time"));
}
