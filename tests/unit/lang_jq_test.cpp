// The jq transform: Argo's transform_test.go jq cases, first-output and object rules, errors.

#include <cctype>
#include <cstdlib>
#include <chrono>
#include <future>

#include <gtest/gtest.h>

#include <simdjson.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/script/jq_transform.hpp"

namespace {

using ganglion::dsl::budget_exceeded;
using ganglion::dsl::compile_error;
using ganglion::dsl::event_view;
using ganglion::dsl::jq_transform;

event_view raw_event(std::string_view data) {
  event_view e;
  e.datacontenttype = "application/json";
  e.data_raw = data;
  return e;
}

std::string identifier(std::string name) {
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch)))
      ch = '_';
  return name;
}

struct jq_case {
  const char* name;
  const char* program;
  const char* data;
  const char* result;
};

const jq_case jq_cases[] = {
    {"argo arithmetic", ".a += 1 | .b *= 2", R"({"a":1,"b":2,"c":{"d":[1,2,3]}})",
     R"({"a":2,"b":4,"c":{"d":[1,2,3]}})"},
    {"first output only", ".a = (1, 2, 3)", R"({"a":0})", R"({"a":1})"},
    {"example transform.yaml", ".body.message *= 2", R"({"body":{"message":"ab"}})",
     R"({"body":{"message":"abab"}})"},
    {"object construction", "{x: .a, keys: keys}", R"({"a":"v","b":null})",
     R"({"x":"v","keys":["a","b"]})"},
    {"nil data is left unchanged", ".a = 1", "", ""},
};

class jq_cases_test : public ::testing::TestWithParam<jq_case> {};

TEST_P(jq_cases_test, transforms_like_argo) {
  const auto& c = GetParam();
  EXPECT_EQ(jq_transform(c.program).apply(raw_event(c.data)), c.result);
}

INSTANTIATE_TEST_SUITE_P(argo, jq_cases_test, ::testing::ValuesIn(jq_cases),
                         [](const auto& info) { return identifier(info.param.name); });

struct jq_error_case {
  const char* name;
  const char* program;
  const char* data;
  const char* error_part;
};

const jq_error_case jq_errors[] = {
    {"output is a number", ".a", R"({"a":1})", "must be a JSON object, not number"},
    {"first output is an array", "[.a], {}", R"({"a":1})", "must be a JSON object, not array"},
    {"no output", "empty", R"({"a":1})", "no output"},
    {"runtime error", ".a + 1", R"({"a":"x"})", "cannot be added"},
    {"error value", R"(error("custom failure"))", R"({"a":1})", "custom failure"},
    {"data is an array", ".", "[1,2]", "not a JSON object"},
    {"data is not JSON", ".", "{oops", "not valid JSON"},
    {"data has two values", ".", R"({} {})", "not valid JSON"},
};

class jq_errors_test : public ::testing::TestWithParam<jq_error_case> {};

TEST_P(jq_errors_test, throw_with_a_reason) {
  const auto& c = GetParam();
  try {
    jq_transform(c.program).apply(raw_event(c.data));
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(c.error_part), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(argo, jq_errors_test, ::testing::ValuesIn(jq_errors),
                         [](const auto& info) { return identifier(info.param.name); });

TEST(jq_transform, compile_error_carries_jqs_message) {
  try {
    jq_transform t(".a +* 1");
    FAIL() << "compiled";
  } catch (const compile_error& e) {
    EXPECT_NE(std::string(e.what()).find("syntax error"), std::string::npos) << e.what();
  }
  EXPECT_THROW(jq_transform("undefined_function(1)"), compile_error);
}

TEST(jq_transform, modules_cannot_be_loaded) {
  EXPECT_THROW(jq_transform(R"(import "sh" as sh; .)"), compile_error);
  EXPECT_THROW(jq_transform(R"(include "sh"; .)"), compile_error);
}

TEST(jq_transform, the_process_environment_is_not_readable) {
  ::setenv("GANGLION_TEST_SECRET", "hunter2", 1);
  jq_transform t("{a: env.GANGLION_TEST_SECRET, b: $ENV.GANGLION_TEST_SECRET, c: (.c | stderr)} "
                 "# a trailing comment");
  EXPECT_EQ(t.apply(raw_event(R"({"c":1})")), R"({"a":null,"b":null,"c":1})");
}

TEST(jq_transform, one_state_serves_many_events) {
  jq_transform t(".n += 1");
  for (int i = 0; i < 50; ++i) {
    std::string data = "{\"n\":" + std::to_string(i) + "}";
    EXPECT_EQ(t.apply(raw_event(data)), "{\"n\":" + std::to_string(i + 1) + "}");
  }
  EXPECT_THROW(t.apply(raw_event(R"({"n":"x"})")), std::runtime_error);
  EXPECT_EQ(t.apply(raw_event(R"({"n":1})")), R"({"n":2})");
}

TEST(jq_transform, a_program_that_never_ends_is_cut_off_by_its_budget) {
  using namespace std::chrono_literals;
  jq_transform endless("until(false; .)", 50ms);
  try {
    endless.apply(raw_event(R"({"a":1})"));
    FAIL() << "returned";
  } catch (const budget_exceeded& e) {
    EXPECT_NE(std::string(e.what()).find("time budget of 50 ms"), std::string::npos) << e.what();
  }
  // The halted state runs the next event from a clean start.
  jq_transform bounded("if .n > 0 then . else until(false; .) end", 50ms);
  EXPECT_THROW(bounded.apply(raw_event(R"({"n":0})")), budget_exceeded);
  EXPECT_EQ(bounded.apply(raw_event(R"({"n":1})")), R"({"n":1})");
}

TEST(jq_transform, programs_on_several_threads_are_cut_off_independently) {
  using namespace std::chrono_literals;
  std::vector<std::future<std::string>> runs;
  for (int i = 0; i < 4; ++i)
    runs.push_back(std::async(std::launch::async, [i] {
      jq_transform t(i % 2 ? ".n += 1" : "until(false; .)", 100ms);
      try {
        return t.apply(raw_event(R"({"n":1})"));
      } catch (const budget_exceeded&) {
        return std::string{"cut off"};
      }
    }));
  for (int i = 0; i < 4; ++i)
    EXPECT_EQ(runs[i].get(), i % 2 ? R"({"n":2})" : "cut off") << i;
}

} // namespace
