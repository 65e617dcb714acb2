// Argo's sensor rules for dependencies and their filters: each test proves one rule fires at the
// right path and position.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

namespace {

const std::string header = "apiVersion: argoproj.io/v1alpha1\nkind: Sensor\nmetadata:\n"
                           "  name: s\nspec:\n";
const std::string one_dependency = "  dependencies:\n    - name: dep\n"
                                   "      eventSourceName: es\n      eventName: ev\n";
const std::string log_action = "  triggers:\n    - template:\n        name: t\n        log: {}\n";

// A sensor whose only dependency carries `filters` (indented under the dependency).
std::string with_filters(const std::string& filters) {
  return header + one_dependency + "      filters:\n" + filters + log_action;
}

} // namespace

TEST(model_validate_sensor, a_complete_sensor_is_valid) {
  EXPECT_TRUE(clean(load(header + one_dependency + log_action)));
}

TEST(model_validate_sensor, needs_a_dependency_and_a_trigger) {
  auto yaml = header + "  dependencies: []\n  triggers: []\n";
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.dependencies", position_of(yaml, "dependencies"),
                             "at least one dependency"));
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers", position_of(yaml, "triggers"),
                             "at least one trigger"));
  auto missing = load(header + "  eventBusName: default\n");
  EXPECT_TRUE(has_diagnostic(missing, "spec.dependencies", 5, 1, "at least one dependency"));
}

TEST(model_validate_sensor, dependency_name_source_and_event_are_required) {
  auto yaml = header + "  dependencies:\n    - filtersLogicalOperator: and\n" + log_action;
  auto r = load(yaml);
  auto item = position_of(yaml, "filtersLogicalOperator");
  EXPECT_TRUE(has_diagnostic(r, "spec.dependencies[0].name", item, "name is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.dependencies[0].eventSourceName", item,
                             "eventSourceName is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.dependencies[0].eventName", item,
                             "eventName is required"));
}

TEST(model_validate_sensor, dependency_names_are_unique) {
  auto yaml = header + one_dependency
              + "    - name: dep\n      eventSourceName: es\n      eventName: other\n"
              + log_action;
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.dependencies[1].name", position_of(yaml, "name: dep", 2),
                             "duplicate dependency name \"dep\""));
}

TEST(model_validate_sensor, logical_operators_are_and_or_or) {
  auto yaml = header + one_dependency + "      filtersLogicalOperator: AND\n"
              + "      filters:\n        dataLogicalOperator: xor\n"
              + "        exprLogicalOperator: Or\n" + log_action;
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.dependencies[0].filtersLogicalOperator",
                             position_of(yaml, "filtersLogicalOperator"), "got \"AND\""));
  EXPECT_TRUE(has_diagnostic(r, "spec.dependencies[0].filters.dataLogicalOperator",
                             position_of(yaml, "dataLogicalOperator"), "got \"xor\""));
  EXPECT_TRUE(has_diagnostic(r, "spec.dependencies[0].filters.exprLogicalOperator",
                             position_of(yaml, "exprLogicalOperator"), "got \"Or\""));
  EXPECT_TRUE(clean(load(header + one_dependency + "      filtersLogicalOperator: or\n"
                         + log_action)));
}

TEST(model_validate_sensor, data_filter_needs_path_type_and_values) {
  auto yaml = with_filters("        data:\n          - comparator: \">\"\n");
  auto r = load(yaml);
  auto item = position_of(yaml, "comparator");
  const std::string at = "spec.dependencies[0].filters.data[0]";
  EXPECT_TRUE(has_diagnostic(r, at + ".path", item, "path is required"));
  EXPECT_TRUE(has_diagnostic(r, at + ".type", item, "type is required"));
  EXPECT_TRUE(has_diagnostic(r, at + ".value", item, "at least one value"));
}

TEST(model_validate_sensor, data_filter_type_and_comparator_are_checked) {
  auto yaml = with_filters("        data:\n          - path: body.a\n            type: integer\n"
                           "            comparator: \"==\"\n            value: [\"1\"]\n");
  auto r = load(yaml);
  const std::string at = "spec.dependencies[0].filters.data[0]";
  EXPECT_TRUE(has_diagnostic(r, at + ".type", position_of(yaml, "type: integer"),
                             "type must be bool, number or string"));
  EXPECT_TRUE(has_diagnostic(r, at + ".comparator", position_of(yaml, "comparator"),
                             "got \"==\""));
}

TEST(model_validate_sensor, data_filter_values_must_be_non_empty_and_parse) {
  auto yaml = with_filters("        data:\n"
                           "          - path: a\n            type: number\n"
                           "            value: [\"1.5e3\", \"ten\", \"\"]\n"
                           "          - path: b\n            type: bool\n"
                           "            value: [\"T\", \"0\", \"yes\"]\n"
                           "          - path: c\n            type: string\n"
                           "            value: [\"^a.*\"]\n");
  auto r = load(yaml);
  const std::string at = "spec.dependencies[0].filters.data";
  EXPECT_TRUE(has_diagnostic(r, at + "[0].value[1]", position_of(yaml, "\"ten\""),
                             "\"ten\" is not a number"));
  EXPECT_TRUE(has_diagnostic(r, at + "[0].value[2]", position_of(yaml, "\"\"]"),
                             "value must not be empty"));
  EXPECT_TRUE(has_diagnostic(r, at + "[1].value[2]", position_of(yaml, "\"yes\""),
                             "\"yes\" is not a boolean"));
  EXPECT_EQ(r.diagnostics.size(), 3u) << dump(r);
}

TEST(model_validate_sensor, a_number_is_what_the_filter_parses_at_run_time) {
  // One strconv.ParseFloat for validate and run: a hex float is 8 in Go, `_` stands between
  // digits only, 1e400 is out of range.
  auto yaml = with_filters("        data:\n"
                           "          - path: a\n            type: number\n"
                           "            value: [\"0x1p3\", \"Inf\", \"0x_1p-2\", \"1e400\", \"1__0\",\n"
                           "                    \"1_0.5\"]\n");
  auto r = load(yaml);
  const std::string at = "spec.dependencies[0].filters.data[0]";
  EXPECT_TRUE(has_diagnostic(r, at + ".value[3]", position_of(yaml, "\"1e400\""),
                             "\"1e400\" is not a number"));
  EXPECT_TRUE(has_diagnostic(r, at + ".value[4]", position_of(yaml, "\"1__0\""),
                             "\"1__0\" is not a number"));
  EXPECT_EQ(r.diagnostics.size(), 2u) << dump(r);
}

TEST(model_validate_sensor, expr_filter_needs_expr_and_named_fields) {
  auto yaml = with_filters("        exprs:\n          - fields: []\n"
                           "          - expr: a > 1\n            fields:\n              - path: x\n");
  auto r = load(yaml);
  const std::string at = "spec.dependencies[0].filters.exprs";
  EXPECT_TRUE(has_diagnostic(r, at + "[0].expr", position_of(yaml, "fields: []"),
                             "expr is required"));
  EXPECT_TRUE(has_diagnostic(r, at + "[0].fields", position_of(yaml, "fields: []"),
                             "at least one field"));
  EXPECT_TRUE(has_diagnostic(r, at + "[1].fields[0].name", position_of(yaml, "path: x"),
                             "name is required"));
}

TEST(model_validate_sensor, time_filter_needs_clock_times_that_differ_and_a_known_zone) {
  auto yaml = with_filters("        time:\n          start: \"9am\"\n          stop: \"24:00:00\"\n"
                           "          timezone: Mars/Olympus\n");
  auto r = load(yaml);
  const std::string at = "spec.dependencies[0].filters.time";
  EXPECT_TRUE(has_diagnostic(r, at + ".start", position_of(yaml, "start"), "got \"9am\""));
  EXPECT_TRUE(has_diagnostic(r, at + ".stop", position_of(yaml, "stop"), "got \"24:00:00\""));
  EXPECT_TRUE(has_diagnostic(r, at + ".timezone", position_of(yaml, "timezone"),
                             "unknown time zone \"Mars/Olympus\""));
  auto same = with_filters("        time: {start: \"10:00:00\", stop: \"10:00:00\"}\n");
  EXPECT_TRUE(has_diagnostic(load(same), at + ".stop", position_of(same, "stop"),
                             "must differ from start"));
  EXPECT_TRUE(clean(load(with_filters("        time: {start: \"22:00:00\", stop: \"6:00:00\", "
                                      "timezone: Asia/Tokyo}\n"))));
}

TEST(model_validate_sensor, context_filter_must_not_be_empty) {
  auto yaml = with_filters("        context:\n          id: abc\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.dependencies[0].filters.context",
                             position_of(yaml, "context"), "must set type, subject"));
  EXPECT_TRUE(clean(load(with_filters("        context: {subject: example}\n"))));
}

TEST(model_validate_sensor, every_problem_is_reported_at_once) {
  auto yaml = header + "  dependencies:\n    - name: a\n    - name: a\n  triggers:\n"
              + "    - template: {name: t}\n    - template: {name: t, log: {}}\n";
  auto r = load(yaml);
  // 2 × eventSourceName, 2 × eventName, duplicate dependency, no action, duplicate trigger.
  EXPECT_EQ(r.diagnostics.size(), 7u) << dump(r);
}
