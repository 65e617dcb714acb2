#pragma once

// The compiled form of a govaluate expression: a tree of nodes stored in one vector.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <re2/re2.h>

#include "ganglion/dsl/expr/expr.hpp"

namespace ganglion::dsl::expr_ast {

/// What a node computes.
enum class op : std::uint8_t {
  literal,
  variable,
  list,
  negate,
  invert,
  bit_not,
  or_,
  and_,
  eq,
  ne,
  gt,
  ge,
  lt,
  le,
  req,
  nreq,
  in,
  bit_and,
  bit_or,
  bit_xor,
  shl,
  shr,
  add,
  sub,
  mul,
  div,
  mod,
  pow,
  ternary_true,
  ternary_false,
  coalesce,
};

/// govaluate's spelling of an operator, for error texts.
std::string_view symbol(op o) noexcept;

/// One node; children are indexes into the program's node vector.
struct node {
  op kind = op::literal;
  std::int32_t lhs = -1;
  std::int32_t rhs = -1;
  /// literal: index into literals; variable: index into variables.
  std::uint32_t index = 0;
  /// variable: the member path after the root name (`a.b.c` → b, c).
  std::vector<std::string> members;
  /// list: the element nodes.
  std::vector<std::int32_t> items;
  /// req / nreq with a literal pattern: compiled once.
  std::shared_ptr<const RE2> regex;
};

} // namespace ganglion::dsl::expr_ast

namespace ganglion::dsl {

/// The compiled program behind an expression.
struct expression::impl {
  std::string text;
  std::vector<std::string> variables;
  std::vector<expr_value> literals;
  std::vector<expr_ast::node> nodes;
  std::int32_t root = -1;
};

} // namespace ganglion::dsl
