// Expr filters: the cases of Argo's filter_expr_test.go plus binding and load-time checks.

#include <gtest/gtest.h>

#include <simdjson.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/filter/expr_filter.hpp"

namespace {

using ganglion::dsl::compile_error;
using ganglion::dsl::compiled_expr_filters;
using ganglion::dsl::event_view;
using ganglion::dsl::expr_field;
using ganglion::dsl::expr_filter;
using ganglion::dsl::filter_outcome;

expr_filter expr(std::string text, std::vector<expr_field> fields) {
  return expr_filter{std::move(text), std::move(fields)};
}

struct filter_case {
  const char* name;
  const char* data; ///< nullptr: the event has no data
  std::vector<expr_filter> filters;
  const char* op;
  bool pass;
  const char* error;
};

// Runs the filters on `data` parsed as the sensor does.
filter_outcome run(const std::vector<expr_filter>& filters, const char* data,
                   const std::string& op) {
  simdjson::dom::parser parser;
  event_view e;
  e.datacontenttype = "application/json";
  if (data != nullptr) {
    e.data_raw = data;
    auto parsed = parser.parse(std::string(data));
    if (!parsed.error()) {
      e.data = parsed.value_unsafe();
      e.data_is_json = true;
    }
  }
  return compiled_expr_filters(filters, op).evaluate(e);
}

class expr_filter_case : public ::testing::TestWithParam<filter_case> {};

TEST_P(expr_filter_case, matches_argo) {
  const auto& c = GetParam();
  auto out = run(c.filters, c.data, c.op);
  EXPECT_EQ(out.pass, c.pass) << c.name;
  EXPECT_EQ(out.error, c.error) << c.name;
}

const expr_filter a_is_b = expr(R"(a == "b")", {{"a", "a"}});

INSTANTIATE_TEST_SUITE_P(filter_expr_test_go, expr_filter_case, ::testing::Values(
  filter_case{"unsupported content type", "a", {a_is_b}, "", false,
              "expr filter error (event data not valid JSON)"},
  filter_case{"empty data", nullptr, {a_is_b}, "", true, ""},
  filter_case{"nil filters", nullptr, {}, "", true, ""},
  filter_case{"simple string equal", R"({"a": "b"})", {a_is_b}, "", true, ""},
  filter_case{"simple string different than", R"({"a": "c"})",
              {expr(R"(a != "b")", {{"a", "a"}})}, "", true, ""},
  filter_case{"nested string equal", R"({"a": {"b": "c"}})",
              {expr(R"(b == "b")", {{"a.b", "b"}})}, "", false, ""},
  filter_case{"number equal", R"({"a": {"b": 2}})", {expr("b == 2", {{"a.b", "b"}})}, "", true, ""},
  filter_case{"number less than", R"({"a": {"b": 2}})", {expr("b < 1", {{"a.b", "b"}})}, "",
              false, ""},
  filter_case{"string contains", R"({"a": {"b": "start long string"}})",
              {expr(R"(b =~ "start")", {{"a.b", "b"}})}, "", true, ""},
  filter_case{"string does not contain", R"({"a": {"b": "long string"}})",
              {expr(R"(b !~ "start")", {{"a.b", "b"}})}, "", true, ""},
  filter_case{"multiple filters, EMPTY operator", R"({"a": {"b": "x", "d": "y"}})",
              {expr(R"(b == "x")", {{"a.b", "b"}}), expr(R"(d == "y")", {{"a.d", "d"}})}, "",
              true, ""},
  filter_case{"multiple filters, AND operator", R"({"a": {"b": "x", "d": "y"}})",
              {expr(R"(b == "x")", {{"a.b", "b"}}), expr(R"(d == "d")", {{"a.d", "d"}})}, "and",
              false, ""},
  filter_case{"multiple filters, OR operator", R"({"a": {"b": "x", "d": "y"}})",
              {expr(R"(b == "x")", {{"a.b", "b"}}), expr(R"(d == "d")", {{"a.d", "d"}})}, "or",
              true, ""},
  filter_case{"OR operator, one field not existing", R"({"a": {"b": "x", "d": "y"}})",
              {expr(R"(b == "b")", {{"a.b", "b"}}), expr(R"(c == "c")", {{"a.c", "c"}})}, "or",
              false, "expr filter errors [path 'a.c' does not exist]"},
  filter_case{"OR operator, missing field not reached after a true filter",
              R"({"a": {"b": "x", "d": {"e": true}}})",
              {expr(R"(b == "x")", {{"a.b", "b"}}), expr(R"(c == "c")", {{"a.c", "c"}}),
               expr("e == true", {{"a.d.e", "e"}})},
              "or", true, ""},
  filter_case{"EMPTY operator, missing field not reached after a false filter",
              R"({"a": {"b": "x", "d": "y"}})",
              {expr(R"(b == "b")", {{"a.b", "b"}}), expr(R"(c == "c")", {{"a.c", "c"}})}, "",
              false, ""},
  filter_case{"EMPTY operator, one field not existing", R"({"a": {"b": "x", "d": "y"}})",
              {expr(R"(b == "x")", {{"a.b", "b"}}), expr(R"(c == "c")", {{"a.c", "c"}})}, "",
              false, "expr filter error (path 'a.c' does not exist)"},
  filter_case{"AND operator, one field not existing", R"({"a": {"b": "x", "d": {"e": true}}})",
              {expr(R"(b == "x")", {{"a.b", "b"}}), expr(R"(c == "c")", {{"a.c", "c"}}),
               expr("e == true", {{"a.d.e", "e"}})},
              "and", false, "expr filter error (path 'a.c' does not exist)"},
  filter_case{"&& inside expr, one field not existing", R"({"a": {"b": "x", "c": {"d": true}}})",
              {expr(R"(b != "b" && d == true)", {{"a.b", "b"}, {"a.d", "d"}})}, "", false,
              "expr filter error (path 'a.d' does not exist)"},
  filter_case{"&& inside expr", R"({"a": {"b": "x", "c": {"d": true}}})",
              {expr(R"(b != "b" && d == true)", {{"a.b", "b"}, {"a.c.d", "d"}})}, "or", true, ""},
  filter_case{"|| inside expr", R"({"a": {"b": "b", "c": {"d": false}}})",
              {expr(R"(b == "b" || d == true)", {{"a.b", "b"}, {"a.c.d", "d"}})}, "", true, ""},
  filter_case{"several operators inside expr, unbound e never read",
              R"({"a": {"b": "b", "c": {"d": false}, "e": 2}})",
              {expr(R"(b == "b" || (d == true && e == 2))", {{"a.b", "b"}, {"a.c.d", "d"}})}, "",
              true, ""}));

INSTANTIATE_TEST_SUITE_P(ganglion, expr_filter_case, ::testing::Values(
  filter_case{"a filter binding no field is skipped under AND", R"({"a": 1})",
              {expr("false", {}), expr("a == 1", {{"a", "a"}})}, "", true, ""},
  filter_case{"a filter binding no field is skipped under OR", R"({"a": 1})",
              {expr("true", {})}, "or", false, ""},
  filter_case{"a non-boolean result fails", R"({"a": 1})", {expr("a + 1", {{"a", "a"}})}, "",
              false, ""},
  filter_case{"a type error under AND", R"({"a": "x"})", {expr("a > 1", {{"a", "a"}})}, "", false,
              "expr filter error (Value 'x' cannot be used with the comparator '>', it is not a "
              "number)"},
  filter_case{"type errors are collected under OR", R"({"a": "x"})",
              {expr("a > 1", {{"a", "a"}}), expr("b == 1", {{"missing", "b"}}),
               expr("a == 'y'", {{"a", "a"}})},
              "or", false,
              "expr filter errors [Value 'x' cannot be used with the comparator '>', it is not a "
              "number / path 'missing' does not exist]"},
  filter_case{"OR passes with an earlier error and no error reported", R"({"a": "x"})",
              {expr("a > 1", {{"a", "a"}}), expr("a == 'x'", {{"a", "a"}})}, "or", true, ""},
  filter_case{"an unbound variable is an error", R"({"a": 1})", {expr("a == b", {{"a", "a"}})},
              "", false, "expr filter error (No parameter 'b' found.)"},
  filter_case{"null binds nil", R"({"a": null})", {expr("a == nil ?? true", {{"a", "a"}})}, "",
              false, "expr filter error (No parameter 'nil' found.)"},
  filter_case{"null coalesces", R"({"a": null})", {expr("(a ?? 'd') == 'd'", {{"a", "a"}})}, "",
              true, ""},
  filter_case{"objects and arrays bind whole", R"({"o": {"k": [1, 2]}, "l": ["x", "y"]})",
              {expr("o.k == (1, 2) && 'y' in l", {{"o", "o"}, {"l", "l"}})}, "", true, ""},
  filter_case{"gjson paths: counts and queries", R"({"items": [{"n": 1}, {"n": 5}]})",
              {expr("count == 2 && big == 5", {{"items.#", "count"}, {"items.#(n>2).n", "big"}})},
              "", true, ""},
  filter_case{"the last field of a name wins", R"({"a": 1, "b": 2})",
              {expr("x == 2", {{"a", "x"}, {"b", "x"}})}, "", true, ""},
  filter_case{"names with dashes in brackets", R"({"a": "v"})",
              {expr("[my-field] == 'v'", {{"a", "my-field"}})}, "", true, ""}));

TEST(expr_filters, compile_errors_name_the_filter) {
  try {
    compiled_expr_filters({a_is_b, expr("a ==", {{"a", "a"}})}, "");
    FAIL();
  } catch (const compile_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("exprs[1]: expression 'a =='", 0), 0u) << e.what();
  }
  EXPECT_THROW(compiled_expr_filters({expr("a", {{"", "a"}})}, ""), compile_error);
  EXPECT_THROW(compiled_expr_filters({a_is_b}, "xor"), compile_error);
  EXPECT_THROW(compiled_expr_filters({expr("a =~ '('", {{"a", "a"}})}, ""), compile_error);
}

TEST(expr_filters, describe_lists_expressions_and_bindings) {
  compiled_expr_filters f({a_is_b, expr("n > 1", {{"x.n", "n"}})}, "or");
  EXPECT_EQ(f.describe(), R"(expr a == "b" [a=a] or expr n > 1 [n=x.n])");
  EXPECT_FALSE(f.empty());
  EXPECT_TRUE(compiled_expr_filters({}, "").empty());
}

TEST(expr_filters, data_not_marked_json_is_parsed) {
  event_view e;
  e.data_raw = R"({"a": "b"})";
  EXPECT_TRUE(compiled_expr_filters({a_is_b}, "").evaluate(e).pass);
}

} // namespace
