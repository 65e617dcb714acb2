// The resource source's selectors, filters, times and event data, as Argo's resource source
// applies them.

#include <gtest/gtest.h>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "source/resource_event_data.hpp"
#include "source/resource_filters.hpp"
#include "client/resource_selectors.hpp"
#include "client/resource_time.hpp"

using namespace ganglion::kubernetes;
using namespace ganglion::kubernetes::detail;
using namespace std::chrono_literals;

namespace {

simdjson::dom::parser parser;

simdjson::dom::element parse(const std::string& text) {
  return parser.parse(text).value();
}

time_point at(const char* text) {
  return parse_rfc3339(text).value();
}

} // namespace

TEST(resource_selectors, labels_become_argos_selector_text) {
  EXPECT_EQ(label_selector({{"tier", "in", "web,api"},
                            {"app", "", "x"},
                            {"b", "==", "y"},
                            {"old", "!", ""},
                            {"new", "exists", ""},
                            {"size", "gt", "3"},
                            {"c", "notin", "z"}}),
            "app=x,b==y,c notin (z),new,!old,size>3,tier in (api,web)");
  EXPECT_THROW(label_selector({{"app", "in", ""}, {"x y", "", "a"}}), std::invalid_argument);
}

TEST(resource_selectors, fields_match_a_regex_against_string_values) {
  auto pod = parse(R"({"metadata":{"name":"my-pod","generation":3},
                       "spec":{"serviceAccountName":"default"}})");
  EXPECT_TRUE(field_matcher({{"metadata.name", "==", "^my-"}}).matches(pod));
  EXPECT_TRUE(field_matcher({{"metadata.name", "=", "pod"}}).matches(pod)); // unanchored
  EXPECT_TRUE(field_matcher({{"metadata.name", "", "pod"}}).matches(pod));  // empty: ==
  EXPECT_FALSE(field_matcher({{"metadata.name", "!=", "^my-"}}).matches(pod));
  EXPECT_FALSE(field_matcher({{"metadata.missing", "!=", "x"}}).matches(pod));
  EXPECT_FALSE(field_matcher({{"metadata.name", "in", "my-pod"}}).matches(pod));
  // gjson's Str is empty for a number: it matches only an expression that matches "".
  EXPECT_FALSE(field_matcher({{"metadata.generation", "==", "3"}}).matches(pod));
  EXPECT_TRUE(field_matcher({{"metadata.name", "==", "my"}, {"spec.serviceAccountName", "==",
                                                               "^default$"}})
                .matches(pod));
  EXPECT_THROW(field_matcher({{"metadata.name", "==", "("}}), std::invalid_argument);
}

TEST(resource_time, rfc3339_as_go_reads_it) {
  EXPECT_EQ(at("2019-04-06T12:52:11Z"), at("2019-04-06T14:52:11+02:00"));
  EXPECT_EQ(at("2019-04-06T12:52:11.5Z") - at("2019-04-06T12:52:11Z"), 500ms);
  EXPECT_FALSE(parse_rfc3339("2019-04-06 12:52:11Z"));
  EXPECT_FALSE(parse_rfc3339("2019-02-30T12:52:11Z"));
  EXPECT_FALSE(parse_rfc3339("2019-04-06T12:52:11"));
}

TEST(resource_time, event_times_are_argos) {
  auto now = at("2030-01-01T00:00:00Z");
  auto object = parse(R"({"metadata":{"creationTimestamp":"2020-01-01T00:00:00Z",
    "managedFields":[{"operation":"Update","time":"2021-01-01T00:00:00Z"},
                     {"operation":"Apply","time":"2022-01-01T00:00:00Z"}]}})");
  EXPECT_EQ(event_time(object, "ADD", now), at("2020-01-01T00:00:00Z"));
  EXPECT_EQ(event_time(object, "UPDATE", now), at("2021-01-01T00:00:00Z"));
  EXPECT_EQ(event_time(object, "DELETE", now), now);
  auto deleting = parse(R"({"metadata":{"deletionTimestamp":"2023-01-01T00:00:00Z"}})");
  EXPECT_EQ(event_time(deleting, "DELETE", now), at("2023-01-01T00:00:00Z"));
  EXPECT_EQ(creation_time(deleting), time_point::min()); // Go's zero time
}

TEST(resource_filters, prefix_after_start_and_created_by) {
  resource_filter f;
  f.prefix = "my-";
  f.after_start = true;
  f.created_by = at("2025-01-01T00:00:00Z");
  resource_filters filters{f, at("2024-06-01T00:00:00Z")};
  auto now = at("2024-07-01T00:00:00Z");
  auto object = [](const char* name, const char* created) {
    return parse(fmt::format(R"({{"metadata":{{"name":"{}","creationTimestamp":"{}"}}}})", name,
                             created));
  };
  EXPECT_TRUE(filters.pass(object("my-a", "2024-06-02T00:00:00Z"), "ADD", now));
  EXPECT_FALSE(filters.pass(object("other", "2024-06-02T00:00:00Z"), "ADD", now));
  EXPECT_FALSE(filters.pass(object("my-a", "2024-05-01T00:00:00Z"), "ADD", now)); // before start
  EXPECT_FALSE(filters.pass(object("my-a", "2025-02-01T00:00:00Z"), "ADD", now)); // after createdBy
  EXPECT_TRUE(filters.pass(object("my-a", "2024-05-01T00:00:00Z"), "DELETE", now));
  EXPECT_TRUE(resource_filters(std::nullopt, now).pass(object("x", "bad"), "ADD", now));
}

TEST(resource_event_data, argos_fields_in_argos_order) {
  resource_event_spec spec;
  spec.group = "apps";
  spec.version = "v1";
  spec.resource = "deployments";
  auto data = resource_event_data({"ADD", R"({ "metadata": { "name": "a" } })", {}}, spec);
  EXPECT_EQ(data, R"({"type":"ADD","body":{"metadata":{"name":"a"}},"oldBody":null,)"
                  R"("group":"apps","version":"v1","resource":"deployments"})");
  spec.metadata = {{"team", "a"}};
  auto update = nlohmann::json::parse(
    resource_event_data({"UPDATE", R"({"v":2})", R"({"v":1})"}, spec));
  EXPECT_EQ(update["oldBody"]["v"], 1);
  EXPECT_EQ(update["body"]["v"], 2);
  EXPECT_EQ(update["metadata"]["team"], "a");
}
