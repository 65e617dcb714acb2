// Lua script filters and transforms: Argo's filter_script_test.go and transform_test.go cases,
// plus the sandbox and its limits.

#include <cctype>
#include <chrono>

#include <gtest/gtest.h>

#include <simdjson.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/script/lua_script.hpp"

namespace {

using ganglion::dsl::compile_error;
using ganglion::dsl::compiled_script_filter;
using ganglion::dsl::event_view;
using ganglion::dsl::filter_outcome;
using ganglion::dsl::lua_transform;

// An event whose data is parsed as the sensor parses it.
class parsed_event {
public:
  explicit parsed_event(std::string data) : data_(std::move(data)) {
    view_.datacontenttype = "application/json";
    view_.data_raw = data_;
    if (!data_.empty() && !parser_.parse(data_).get(view_.data))
      view_.data_is_json = true;
  }
  const event_view& view() const { return view_; }

private:
  std::string data_;
  simdjson::dom::parser parser_;
  event_view view_;
};

// A test name from a case description.
std::string identifier(std::string name) {
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch)))
      ch = '_';
  return name;
}

filter_outcome filter(const std::string& script, const std::string& data) {
  parsed_event event(data);
  return compiled_script_filter(script).evaluate(event.view());
}

std::string transform(const std::string& script, const std::string& data) {
  parsed_event event(data);
  return lua_transform(script).apply(event.view());
}

struct filter_case {
  const char* name;
  const char* script;
  const char* data;
  bool pass;
  const char* error_part;  // empty when no error is expected
};

const filter_case filter_cases[] = {
    {"true", R"(if event.a == "b" and event.d.e == "z" then return true else return false end)",
     R"({"a":"b","c":{},"d":{"e":"z"}})", true, ""},
    {"false", R"(if event.a == "c" then return true else return false end)",
     R"({"a":"b","c":{},"d":{"e":"z"}})", false, ""},
    {"runtime error on a nil global", R"(if a.a == "b" then return true else return false end)",
     R"({"a":"b"})", false, "attempt to index a nil value"},
    {"only boolean true passes", "return 1", R"({"a":"b"})", false, ""},
    {"last returned value decides", "return false, true", R"({})", true, ""},
    {"no return fails", "local x = 1", R"({})", false, ""},
    {"nil data passes", "return false", "", true, ""},
    {"array data is an error", "return true", "[1,2]", false, "not a JSON object"},
    {"invalid data is an error", "return true", "not json", false, "not valid JSON"},
    {"arrays are 1-based", "return event.list[1] == 10 and event.list[2] == 20",
     R"({"list":[10,20]})", true, ""},
    {"nested arrays and nulls are dropped",
     "return #event.list == 3 and event.list[2] == 'x' and event.list[3].k == true "
     "and event.n == nil",
     R"({"list":[1,[2,3],null,"x",{"k":true}],"n":null})", true, ""},
    {"nested objects become tables", "return event.a.b.c == 1.5", R"({"a":{"b":{"c":1.5}}})",
     true, ""},
    {"integers stay integers", "return math.type(event.n) == 'integer'", R"({"n":7})", true, ""},
    {"error() text is reported", "error('bad event')", R"({})", false, "bad event"},
};

class script_filter_cases : public ::testing::TestWithParam<filter_case> {};

TEST_P(script_filter_cases, evaluates_like_argo) {
  const auto& c = GetParam();
  auto out = filter(c.script, c.data);
  EXPECT_EQ(out.pass, c.pass);
  if (*c.error_part == '\0')
    EXPECT_EQ(out.error, "");
  else
    EXPECT_NE(out.error.find(c.error_part), std::string::npos) << out.error;
}

INSTANTIATE_TEST_SUITE_P(argo, script_filter_cases, ::testing::ValuesIn(filter_cases),
                         [](const auto& info) { return identifier(info.param.name); });

TEST(script_filter, syntax_error_is_a_compile_error) {
  try {
    compiled_script_filter f(R"(if event.a == "b" return true else return false end)");
    FAIL() << "compiled";
  } catch (const compile_error& e) {
    EXPECT_NE(std::string(e.what()).find("'then' expected"), std::string::npos) << e.what();
  }
}

TEST(script_filter, one_state_serves_many_events_without_leaking_globals) {
  compiled_script_filter f(R"(
    local clean = leaked == nil and string.upper ~= nil and math.pi ~= 3
    leaked = true
    string.upper = nil
    math.pi = 3
    return clean and event.n > 0
  )");
  for (const char* data : {R"({"n":1})", R"({"n":2})", R"({"n":3})"}) {
    parsed_event event(data);
    auto out = f.evaluate(event.view());
    EXPECT_TRUE(out.pass) << data << " " << out.error;
  }
  parsed_event negative(R"({"n":-1})");
  EXPECT_FALSE(f.evaluate(negative.view()).pass);
}

TEST(script_filter, event_is_rebound_for_each_evaluation) {
  compiled_script_filter f("return event.a == nil");
  parsed_event with_a(R"({"a":1})");
  parsed_event without_a(R"({"b":1})");
  EXPECT_FALSE(f.evaluate(with_a.view()).pass);
  EXPECT_TRUE(f.evaluate(without_a.view()).pass);
}

struct sandbox_case {
  const char* name;
  const char* script;
  const char* error_part;
};

const sandbox_case sandbox_cases[] = {
    {"os.execute", "os.execute('touch /tmp/ganglion-lua-escape') return true", "nil value"},
    {"io.open", "io.open('/etc/passwd') return true", "nil value"},
    {"require", "require('os') return true", "nil value"},
    {"load of a dumped function", "load(string.dump(function() end))() return true", "nil value"},
    {"dofile", "dofile('/etc/passwd') return true", "nil value"},
    {"debug library", "debug.getinfo(1) return true", "nil value"},
    {"string metatable", "getmetatable('').__index.upper = nil return true", "index a boolean"},
    {"collectgarbage stop", "collectgarbage('stop') return true", "only \"count\""},
    {"infinite loop", "while true do end", "instruction budget"},
    {"loop that swallows the budget error",
     "while true do pcall(function() while true do end end) end", "instruction budget"},
    {"memory bomb",
     "local t = {} for i = 1, 100 do t[i] = string.rep('x', 1e6) .. i end return true",
     "memory limit"},
    {"string bomb", "local s = 'x' while true do s = s .. s end", "memory limit"},
    {"allocation churn",
     "for i = 1, 1000 do local s = string.rep('x', 8000000) end return true", "memory limit"},
};

class script_sandbox_cases : public ::testing::TestWithParam<sandbox_case> {};

TEST_P(script_sandbox_cases, is_refused) {
  const auto& c = GetParam();
  auto out = filter(c.script, R"({"a":1})");
  EXPECT_FALSE(out.pass);
  EXPECT_NE(out.error.find(c.error_part), std::string::npos) << out.error;
}

INSTANTIATE_TEST_SUITE_P(sandbox, script_sandbox_cases, ::testing::ValuesIn(sandbox_cases),
                         [](const auto& info) { return identifier(info.param.name); });

TEST(script_filter, recovers_after_exceeding_limits) {
  compiled_script_filter f(R"(
    if event.mode == "loop" then while true do end end
    if event.mode == "memory" then local s = 'x' while true do s = s .. s end end
    local sum = 0
    for i = 1, 100000 do sum = sum + i end
    return sum > 0
  )");
  parsed_event loop(R"({"mode":"loop"})");
  parsed_event memory(R"({"mode":"memory"})");
  parsed_event normal(R"({"mode":"normal"})");
  EXPECT_NE(f.evaluate(loop.view()).error.find("instruction budget"), std::string::npos);
  EXPECT_TRUE(f.evaluate(normal.view()).pass);
  EXPECT_NE(f.evaluate(memory.view()).error.find("memory limit"), std::string::npos);
  auto out = f.evaluate(normal.view());
  EXPECT_TRUE(out.pass) << out.error;
}

TEST(script_filter, a_script_that_outlasts_its_time_budget_is_cut_off) {
  using namespace std::chrono_literals;
  // About 450,000 instructions, within the instruction budget, each loop allocating a string.
  const char* slow = "for i = 1, 50000 do local s = string.rep('x', 100) .. i end return true";
  parsed_event e(R"({"a":1})");
  compiled_script_filter tight(slow, 1ms);
  auto out = tight.evaluate(e.view());
  EXPECT_FALSE(out.pass);
  EXPECT_TRUE(out.cut_off);
  EXPECT_NE(out.error.find("time budget of 1 ms"), std::string::npos) << out.error;
  compiled_script_filter roomy(slow, 60s);
  out = roomy.evaluate(e.view());
  EXPECT_TRUE(out.pass) << out.error;
  EXPECT_FALSE(out.cut_off);
}

TEST(lua_transform, a_script_that_never_ends_is_cut_off) {
  lua_transform t("while true do end");
  parsed_event e(R"({"a":1})");
  EXPECT_THROW(t.apply(e.view()), ganglion::dsl::budget_exceeded);
}

struct transform_case {
  const char* name;
  const char* script;
  const char* data;
  const char* result;
};

const transform_case transform_cases[] = {
    {"nested array element is edited 1-based", "event.c.d[1] = 4 return event",
     R"({"a":1,"b":2,"c":{"d":[1,2,3]}})", R"({"a":1,"b":2,"c":{"d":[4,2,3]}})"},
    {"empty table with __is_array is an array",
     "return setmetatable({}, {__is_array = true})", R"({"a":1})", "[]"},
    {"empty table is an object", "return {}", R"({"a":1})", "{}"},
    {"table with a length is an array", "return {1, 'x', true}", R"({})", R"([1,"x",true])"},
    {"integral floats have no fraction", "event.a = event.a * 1.0 event.b = 2.5 return event",
     R"({"a":3})", R"({"a":3,"b":2.5})"},
    {"number keys become strings", "return {[1.5] = 'x', y = false}", R"({})",
     R"({"1.5":"x","y":false})"},
    {"example transform.yaml", "event.body.message='updated' return event",
     R"({"body":{"message":"hello"}})", R"({"body":{"message":"updated"}})"},
    {"nil data is left unchanged", "return {}", "", ""},
};

class lua_transform_cases : public ::testing::TestWithParam<transform_case> {};

TEST_P(lua_transform_cases, converts_like_argo) {
  const auto& c = GetParam();
  EXPECT_EQ(transform(c.script, c.data), c.result);
}

INSTANTIATE_TEST_SUITE_P(argo, lua_transform_cases, ::testing::ValuesIn(transform_cases),
                         [](const auto& info) { return identifier(info.param.name); });

struct transform_error_case {
  const char* name;
  const char* script;
  const char* data;
  const char* error_part;
};

const transform_error_case transform_errors[] = {
    {"returning a string", "return 'hello'", R"({"a":1})", "must return a table, not a string"},
    {"returning nothing", "event.a = 2", R"({"a":1})", "not a nil"},
    {"a function in the result", "return {f = print or type}", R"({"a":1})", "function value"},
    {"a cyclic table", "local t = {} t.self = t return t", R"({"a":1})", "nests deeper"},
    {"not-a-number", "return {x = 0/0}", R"({"a":1})", "JSON cannot represent"},
    {"data that is not an object", "return event", "[1]", "not a JSON object"},
    {"runtime error", "return event.x.y", R"({"a":1})", "attempt to index a nil value"},
};

class lua_transform_errors : public ::testing::TestWithParam<transform_error_case> {};

TEST_P(lua_transform_errors, throw_with_a_reason) {
  const auto& c = GetParam();
  try {
    transform(c.script, c.data);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(c.error_part), std::string::npos) << e.what();
  }
}

INSTANTIATE_TEST_SUITE_P(argo, lua_transform_errors, ::testing::ValuesIn(transform_errors),
                         [](const auto& info) { return identifier(info.param.name); });

TEST(lua_transform, syntax_error_is_a_compile_error) {
  EXPECT_THROW(lua_transform("return {"), compile_error);
}

TEST(lua_transform, reuses_its_state_across_events) {
  lua_transform t("counter = (counter or 0) + 1 event.counter = counter return event");
  parsed_event first(R"({"a":1})");
  parsed_event second(R"({"a":2})");
  EXPECT_EQ(t.apply(first.view()), R"({"a":1,"counter":1})");
  EXPECT_EQ(t.apply(second.view()), R"({"a":2,"counter":1})");
}

} // namespace
