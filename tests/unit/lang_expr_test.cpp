// The govaluate expression language: operators, precedence, type rules and error texts.

#include <gtest/gtest.h>

#include <map>
#include <string>

#include <simdjson.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/expr/expr.hpp"

namespace {

using ganglion::dsl::compile_error;
using ganglion::dsl::expr_error;
using ganglion::dsl::expr_value;
using ganglion::dsl::expression;
using ganglion::dsl::to_display;

/// Parameters available to every case.
const std::map<std::string, std::string, std::less<>>& parameters() {
  static const std::map<std::string, std::string, std::less<>> json = {
    {"s", R"("hello world")"},
    {"n", "42"},
    {"f", "2.5"},
    {"t", "true"},
    {"z", "null"},
    {"arr", R"([1, "a", true])"},
    {"obj", R"({"b": {"c": 1}, "k": "v"})"},
    {"dep-1", "true"},
    {"pattern", R"("[")"},
  };
  return json;
}

/// Evaluates `text` with the parameters bound; the `%v` rendering of the result, or
/// "error: <text>".
std::string eval(std::string_view text) {
  auto e = expression::compile(text);
  simdjson::dom::parser parser;
  std::vector<expr_value> values;
  values.reserve(e.variables().size());
  std::vector<const expr_value*> bound;
  for (const auto& name : e.variables()) {
    auto it = parameters().find(name);
    if (it == parameters().end()) {
      bound.push_back(nullptr);
      continue;
    }
    values.push_back(expr_value::from_json(parser.parse(it->second).value()));
    bound.push_back(&values.back());
  }
  try {
    return to_display(e.evaluate(bound));
  } catch (const expr_error& err) {
    return std::string("error: ") + err.what();
  }
}

struct eval_case {
  const char* text;
  const char* expected;
};

class expr_eval : public ::testing::TestWithParam<eval_case> {};

TEST_P(expr_eval, matches_govaluate) {
  EXPECT_EQ(eval(GetParam().text), GetParam().expected) << GetParam().text;
}

INSTANTIATE_TEST_SUITE_P(arithmetic, expr_eval, ::testing::Values(
  eval_case{"1 + 2 * 3", "7"},
  eval_case{"(1 + 2) * 3", "9"},
  eval_case{"10 - 4 - 3", "3"},
  eval_case{"100 / 10 / 5", "2"},
  eval_case{"10 / 4", "2.5"},
  eval_case{"7 % 3", "1"},
  eval_case{"-7 % 3", "-1"},
  eval_case{"2 ** 3 ** 2", "64"},
  eval_case{"-2 ** 2", "4"},
  eval_case{"2 * 3 ** 2", "18"},
  eval_case{"1 / 0", "+Inf"},
  eval_case{"n + f", "44.5"},
  eval_case{"- n", "-42"},
  eval_case{"0x1F + 1", "32"},
  eval_case{".5 + 1", "1.5"},
  eval_case{"6 & 3", "2"},
  eval_case{"6 | 3", "7"},
  eval_case{"6 ^ 3", "5"},
  eval_case{"1 << 4", "16"},
  eval_case{"-16 >> 2", "-4"},
  eval_case{"~0", "-1"},
  eval_case{"1 << 2 + 1", "8"},
  eval_case{"1000000 * 1000000 * 1000000 * 1000", "1e+21"},
  eval_case{"1 / 100000", "1e-05"}));

INSTANTIATE_TEST_SUITE_P(strings, expr_eval, ::testing::Values(
  eval_case{"'a' + 'b'", "ab"},
  eval_case{"\"a\" + 1", "a1"},
  eval_case{"1.5 + 'a'", "1.5a"},
  eval_case{"'x' + t", "xtrue"},
  eval_case{"'it\\'s'", "it's"},
  eval_case{"\"say \\\"hi\\\"\"", "say \"hi\""},
  eval_case{"'abc' < 'abd'", "true"},
  eval_case{"'10' < '9'", "true"},
  eval_case{"'b' >= 'b'", "true"},
  eval_case{"s == 'hello world'", "true"},
  eval_case{"n == '42'", "false"},
  eval_case{"s =~ 'wor'", "true"},
  eval_case{"s =~ '^world'", "false"},
  eval_case{"s !~ '^world'", "true"},
  eval_case{"s =~ '^h.*d$'", "true"},
  eval_case{"s =~ 'o' + ' w'", "true"},
  eval_case{"s =~ pattern", "error: Unable to compile regexp pattern '[': missing ]: ["},
  eval_case{"n =~ 'a'", "error: Value '42' cannot be used with the comparator '=~', it is not a number"},
  eval_case{"s =~ 1", "error: Value '1' cannot be used with the comparator '=~', it is not a number"}));

INSTANTIATE_TEST_SUITE_P(logic, expr_eval, ::testing::Values(
  eval_case{"1 < 2 && 2 < 3", "true"},
  eval_case{"1 > 2 || 2 > 3", "false"},
  eval_case{"true || false && false", "true"},
  eval_case{"(true || false) && false", "false"},
  eval_case{"true || missing", "true"},
  eval_case{"false && missing", "false"},
  eval_case{"false || missing", "error: No parameter 'missing' found."},
  eval_case{"!true == false", "true"},
  eval_case{"!(1 == 2)", "true"},
  eval_case{"!t", "false"},
  eval_case{"!!t", "true"},
  eval_case{"!1", "error: Value '1' cannot be used with the prefix '!'"},
  eval_case{"-s", "error: Value 'hello world' cannot be used with the prefix '-'"},
  eval_case{"1 && true", "error: Value '1' cannot be used with the logical operator '&&', it is not a bool"},
  eval_case{"true && 'x'", "error: Value 'x' cannot be used with the logical operator '&&', it is not a bool"},
  eval_case{"1 + 2 == 3", "true"},
  eval_case{"1 | 2 == 3", "true"},
  eval_case{"n > 40 && s =~ 'hello' || false", "true"},
  eval_case{"[dep-1] && dep\\-1", "true"}));

INSTANTIATE_TEST_SUITE_P(comparisons_and_types, expr_eval, ::testing::Values(
  eval_case{"n > 41.5", "true"},
  eval_case{"n >= 42", "true"},
  eval_case{"n < 42", "false"},
  eval_case{"n <= 42", "true"},
  eval_case{"n != 42", "false"},
  eval_case{"1 < 'a'", "error: Value '1' cannot be used with the comparator '<', it is not a number"},
  eval_case{"t > false", "error: Value 'true' cannot be used with the comparator '>', it is not a number"},
  eval_case{"1 + t", "error: Value '1' cannot be used with the modifier '+', it is not a number"},
  eval_case{"s - 1", "error: Value 'hello world' cannot be used with the modifier '-', it is not a number"},
  eval_case{"2 * t", "error: Value 'true' cannot be used with the modifier '*', it is not a number"},
  eval_case{"z == z", "true"},
  eval_case{"z", "<nil>"},
  eval_case{"arr", "[1 a true]"},
  eval_case{"obj", "map[b:map[c:1] k:v]"},
  eval_case{"arr == (1, 'a', true)", "true"},
  eval_case{"arr != (1, 'a')", "true"},
  eval_case{"obj.b.c == 1", "true"},
  eval_case{"obj.k + '!'", "v!"},
  eval_case{"obj.x", "error: No method or field 'x' present on parameter 'obj'"},
  eval_case{"s.x", "error: Unable to access 'x', 's' is not a struct"},
  eval_case{"undefined == 1", "error: No parameter 'undefined' found."}));

INSTANTIATE_TEST_SUITE_P(in_and_ternary, expr_eval, ::testing::Values(
  eval_case{"2 in (1, 2, 3)", "true"},
  eval_case{"'b' in ('a', 'c')", "false"},
  eval_case{"n IN (41, 42)", "true"},
  eval_case{"'a' in arr", "true"},
  eval_case{"false in arr", "false"},
  eval_case{"1 in 1", "error: Value '1' cannot be used with the comparator 'in', it is not a number"},
  eval_case{"1, 2, 3", "[1 2 3]"},
  eval_case{"true ? 'yes' : 'no'", "yes"},
  eval_case{"false ? 'yes' : 'no'", "no"},
  eval_case{"n > 100 ? 1 : 2 + 3", "5"},
  eval_case{"false ? 1", "<nil>"},
  eval_case{"1 ? 2 : 3", "error: Value '1' cannot be used with the ternary operator '?', it is not a bool"},
  eval_case{"true ? 1 : missing", "1"},
  eval_case{"z ?? 'default'", "default"},
  eval_case{"s ?? missing", "hello world"},
  eval_case{"z ?? z ?? 3", "3"}));

TEST(expr, variables_in_order_of_first_use) {
  auto e = expression::compile("b == 1 && a.x || b > [c d] && dep\\-2");
  EXPECT_EQ(e.variables(), (std::vector<std::string>{"b", "a", "c d", "dep-2"}));
  EXPECT_EQ(e.text(), "b == 1 && a.x || b > [c d] && dep\\-2");
}

TEST(expr, evaluates_repeatedly_with_new_bindings) {
  auto e = expression::compile("x * 2 > 10");
  expr_value small(3.0), big(6.0);
  const expr_value* a[] = {&small};
  const expr_value* b[] = {&big};
  EXPECT_EQ(to_display(e.evaluate(a)), "false");
  EXPECT_EQ(to_display(e.evaluate(b)), "true");
}

std::size_t error_offset(std::string_view text) {
  try {
    expression::compile(text);
  } catch (const compile_error& e) {
    return e.offset();
  }
  ADD_FAILURE() << "compiled: " << text;
  return 0;
}

TEST(expr, syntax_errors_are_compile_errors_with_offsets) {
  EXPECT_EQ(error_offset(""), 0u);
  EXPECT_EQ(error_offset("1 +"), 3u);
  EXPECT_EQ(error_offset("(1 + 2"), 0u);
  EXPECT_EQ(error_offset("1 + 2)"), 5u);
  EXPECT_EQ(error_offset("'abc"), 0u);
  EXPECT_EQ(error_offset("a == "), 5u);
  EXPECT_EQ(error_offset("1 2"), 2u);
  EXPECT_EQ(error_offset("a."), 0u);
  EXPECT_EQ(error_offset("a = 1"), 2u);
  EXPECT_EQ(error_offset("a @ 1"), 2u);
  EXPECT_EQ(error_offset("()"), 0u);
  EXPECT_EQ(error_offset("[abc"), 0u);
  EXPECT_EQ(error_offset("1.2.3"), 0u);
  EXPECT_EQ(error_offset("s =~ '('"), 5u);
  EXPECT_EQ(error_offset("in 1"), 0u);
  EXPECT_EQ(error_offset("1e21"), 1u);
}

TEST(expr, compile_error_message_names_the_expression) {
  try {
    expression::compile("a ==");
    FAIL();
  } catch (const compile_error& e) {
    EXPECT_STREQ(e.what(), "expression 'a ==': expression ends after an operator at offset 4");
  }
}

TEST(expr, deep_nesting_is_rejected_not_crashing) {
  std::string deep(300, '(');
  deep += "1";
  deep += std::string(300, ')');
  EXPECT_THROW(expression::compile(deep), compile_error);
  std::string chain = "1";
  for (int i = 0; i < 300; ++i)
    chain += " + 1";
  EXPECT_THROW(expression::compile(chain), compile_error);
  std::string prefixes(300, '!');
  EXPECT_THROW(expression::compile(prefixes + "true"), compile_error);
  std::string fine = "1";
  for (int i = 0; i < 100; ++i)
    fine += " + 1";
  EXPECT_EQ(eval(fine), "101");
}

} // namespace
