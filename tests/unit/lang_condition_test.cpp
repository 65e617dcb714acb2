// Trigger conditions: Argo's TestGetDependencyExpression cases and the expression grammar.

#include <gtest/gtest.h>

#include <vector>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/expr/condition.hpp"

namespace {

using ganglion::dsl::compile_error;
using ganglion::dsl::condition;

// Evaluates `c` with the named variables present.
bool holds(const condition& c, std::vector<std::string> present_names) {
  std::vector<std::uint8_t> present(c.variables().size(), 0);
  for (std::size_t i = 0; i < c.variables().size(); ++i)
    for (const auto& name : present_names)
      if (c.variables()[i] == name)
        present[i] = 1;
  return c.evaluate(present);
}

std::size_t error_offset(std::string_view text) {
  try {
    condition::parse(text);
  } catch (const compile_error& e) {
    return e.offset();
  }
  ADD_FAILURE() << "parsed: " << text;
  return 0;
}

TEST(condition, default_is_and_of_all_dependencies) {
  auto c = condition::all_of({"dep1", "dep2", "dep3"});
  EXPECT_EQ(c.variables(), (std::vector<std::string>{"dep1", "dep2", "dep3"}));
  EXPECT_TRUE(c.needs_state());
  EXPECT_TRUE(holds(c, {"dep1", "dep2", "dep3"}));
  EXPECT_FALSE(holds(c, {"dep1", "dep3"}));
  EXPECT_EQ(c.text(), "dep1 && dep2 && dep3");
}

TEST(condition, single_dependency_default_is_stateless) {
  auto c = condition::all_of({"dep1"});
  EXPECT_FALSE(c.needs_state());
  EXPECT_EQ(c.text(), "dep1");
  EXPECT_TRUE(holds(c, {"dep1"}));
  EXPECT_FALSE(holds(c, {}));
}

TEST(condition, names_with_dashes_and_underscores) {
  auto c = condition::parse("dep-1 || dep-1a || dep-3");
  EXPECT_EQ(c.variables(), (std::vector<std::string>{"dep-1", "dep-1a", "dep-3"}));
  EXPECT_FALSE(c.needs_state());
  EXPECT_TRUE(holds(c, {"dep-1a"}));
  EXPECT_FALSE(holds(c, {}));
  auto d = condition::parse("dep_1a&&dep.x");
  EXPECT_EQ(d.variables(), (std::vector<std::string>{"dep_1a", "dep.x"}));
  EXPECT_TRUE(d.needs_state());
}

TEST(condition, and_binds_tighter_than_or) {
  auto c = condition::parse("a || b && c");
  EXPECT_TRUE(holds(c, {"a"}));
  EXPECT_FALSE(holds(c, {"b"}));
  EXPECT_TRUE(holds(c, {"b", "c"}));
  EXPECT_EQ(c.text(), "a || b && c");
}

TEST(condition, parentheses_group) {
  auto c = condition::parse("(dep01 || dep02) && dep04");
  EXPECT_TRUE(c.needs_state());
  EXPECT_TRUE(holds(c, {"dep02", "dep04"}));
  EXPECT_FALSE(holds(c, {"dep01", "dep02"}));
  EXPECT_EQ(c.text(), "(dep01 || dep02) && dep04");
  auto e2e = condition::parse(" ( d1&&d2 )||d3 ");
  EXPECT_TRUE(holds(e2e, {"d3"}));
  EXPECT_TRUE(holds(e2e, {"d1", "d2"}));
  EXPECT_FALSE(holds(e2e, {"d1"}));
  EXPECT_EQ(e2e.text(), "d1 && d2 || d3");
}

TEST(condition, repeated_names_share_a_variable) {
  auto c = condition::parse("a && (a || b)");
  EXPECT_EQ(c.variables(), (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(holds(c, {"a"}));
  EXPECT_FALSE(holds(c, {"b"}));
}

TEST(condition, errors_carry_the_offset) {
  EXPECT_EQ(error_offset(""), 0u);
  EXPECT_EQ(error_offset("   "), 0u);
  EXPECT_EQ(error_offset("(a || b"), 0u);
  EXPECT_EQ(error_offset("a || b)"), 6u);
  EXPECT_EQ(error_offset("a &&"), 4u);
  EXPECT_EQ(error_offset("a & b"), 2u);
  EXPECT_EQ(error_offset("a | b"), 2u);
  EXPECT_EQ(error_offset("|| a"), 0u);
  EXPECT_EQ(error_offset("a b"), 2u);
  EXPECT_EQ(error_offset("a !b"), 2u);
  EXPECT_EQ(error_offset("a && !"), 6u);
  EXPECT_EQ(error_offset("!"), 1u);
  EXPECT_EQ(error_offset("()"), 1u);
}

TEST(condition, deep_nesting_is_an_error_not_a_crash) {
  std::string deep = std::string(100000, '(') + "a" + std::string(100000, ')');
  EXPECT_THROW(condition::parse(deep), compile_error);
  std::string fine = std::string(50, '(') + "a" + std::string(50, ')');
  EXPECT_TRUE(holds(condition::parse(fine), {"a"}));
}

TEST(condition, not_binds_tighter_than_and) {
  auto c = condition::parse("!a && b");
  EXPECT_TRUE(c.needs_state());
  EXPECT_TRUE(holds(c, {"b"}));
  EXPECT_FALSE(holds(c, {"a", "b"}));
  EXPECT_FALSE(holds(c, {}));
  EXPECT_EQ(c.text(), "!a && b");
  auto d = condition::parse("! (a || b) || c");
  EXPECT_FALSE(d.needs_state());
  EXPECT_TRUE(holds(d, {}));
  EXPECT_FALSE(holds(d, {"a"}));
  EXPECT_TRUE(holds(d, {"b", "c"}));
  EXPECT_EQ(d.text(), "!(a || b) || c");
}

TEST(condition, not_with_dashed_names_and_double_negation) {
  auto c = condition::parse("!!dep-1 && !dep_2.x");
  EXPECT_EQ(c.variables(), (std::vector<std::string>{"dep-1", "dep_2.x"}));
  EXPECT_TRUE(holds(c, {"dep-1"}));
  EXPECT_FALSE(holds(c, {"dep-1", "dep_2.x"}));
  EXPECT_FALSE(holds(c, {}));
  EXPECT_EQ(c.text(), "!!dep-1 && !dep_2.x");
  auto d = condition::parse("!(a && b)");
  EXPECT_TRUE(d.needs_state());
  EXPECT_TRUE(holds(d, {"a"}));
  EXPECT_FALSE(holds(d, {"a", "b"}));
  EXPECT_EQ(d.text(), "!(a && b)");
  std::string many(100000, '!');
  EXPECT_THROW(condition::parse(many + "a"), compile_error);
}

TEST(condition, copies_are_independent) {
  auto c = condition::parse("x && y");
  condition copy = c;
  c = condition::parse("z");
  EXPECT_EQ(copy.text(), "x && y");
  EXPECT_EQ(c.variables(), (std::vector<std::string>{"z"}));
}

} // namespace
