// Evaluation of compiled govaluate expressions with govaluate's type checks, short-circuits
// and error texts (evaluationStage.go, stagePlanner.go).

#include <cmath>
#include <cstdint>
#include <limits>

#include <fmt/format.h>

#include "expr/expr_ast.hpp"

namespace ganglion::dsl {

namespace {

using expr_ast::op;

constexpr std::string_view logical_error =
  "Value '{}' cannot be used with the logical operator '{}', it is not a bool";
constexpr std::string_view modifier_error =
  "Value '{}' cannot be used with the modifier '{}', it is not a number";
constexpr std::string_view comparator_error =
  "Value '{}' cannot be used with the comparator '{}', it is not a number";
constexpr std::string_view ternary_error =
  "Value '{}' cannot be used with the ternary operator '{}', it is not a bool";
constexpr std::string_view prefix_error = "Value '{}' cannot be used with the prefix '{}'";

[[noreturn]] void type_error(std::string_view format, const expr_value& value, op o) {
  throw expr_error(fmt::format(fmt::runtime(format), to_display(value), expr_ast::symbol(o)));
}

double num(const expr_value& v) {
  return std::get<double>(v.v);
}

const std::string& str(const expr_value& v) {
  return std::get<std::string>(v.v);
}

// Go's int64(float64) as amd64 computes it (out of range and NaN give the minimum).
std::int64_t to_int64(double d) {
  if (!(d >= -9223372036854775808.0 && d < 9223372036854775808.0))
    return std::numeric_limits<std::int64_t>::min();
  return static_cast<std::int64_t>(d);
}

double shift(std::int64_t value, double count, bool left) {
  if (!(count >= 0 && count < 64))
    return left ? 0.0 : (value < 0 ? -1.0 : 0.0);
  auto n = static_cast<unsigned>(count);
  if (left)
    return static_cast<double>(static_cast<std::int64_t>(static_cast<std::uint64_t>(value) << n));
  return static_cast<double>(value >> n);
}

class evaluator {
public:
  evaluator(const expression::impl& program, std::span<const expr_value* const> bound)
    : p_(program), bound_(bound) {}

  expr_value eval(std::int32_t index) {
    const auto& n = p_.nodes[static_cast<std::size_t>(index)];
    switch (n.kind) {
      case op::literal: return p_.literals[n.index];
      case op::variable: return variable(n);
      case op::list: {
        auto out = std::make_shared<expr_array>();
        for (auto item : n.items)
          out->items.push_back(eval(item));
        return std::shared_ptr<const expr_array>(std::move(out));
      }
      case op::negate:
      case op::invert:
      case op::bit_not: return prefix(n);
      default: return binary(n);
    }
  }

private:
  expr_value variable(const expr_ast::node& n) {
    const auto& name = p_.variables[n.index];
    const expr_value* v = n.index < bound_.size() ? bound_[n.index] : nullptr;
    if (v == nullptr)
      throw expr_error(fmt::format("No parameter '{}' found.", name));
    const std::string* previous = &name;
    for (const auto& member : n.members) {
      if (!v->is_object())
        throw expr_error(fmt::format("Unable to access '{}', '{}' is not a struct", member, *previous));
      const auto& members = std::get<std::shared_ptr<const expr_object>>(v->v)->members;
      auto it = members.find(member);
      if (it == members.end())
        throw expr_error(fmt::format("No method or field '{}' present on parameter '{}'", member,
                                     *previous));
      v = &it->second;
      previous = &member;
    }
    return *v;
  }

  expr_value prefix(const expr_ast::node& n) {
    auto right = eval(n.rhs);
    if (n.kind == op::invert) {
      if (!right.is_bool())
        type_error(prefix_error, right, n.kind);
      return !std::get<bool>(right.v);
    }
    if (!right.is_number())
      type_error(prefix_error, right, n.kind);
    if (n.kind == op::negate)
      return -num(right);
    return static_cast<double>(~to_int64(num(right)));
  }

  expr_value binary(const expr_ast::node& n) {
    auto left = eval(n.lhs);
    switch (n.kind) {
      case op::and_:
        if (left.is_bool() && !std::get<bool>(left.v))
          return false;
        break;
      case op::or_:
        if (left.is_bool() && std::get<bool>(left.v))
          return true;
        break;
      case op::coalesce:
        if (!left.is_nil())
          return left;
        break;
      case op::ternary_true:
        if (left.is_bool() && !std::get<bool>(left.v))
          return {};
        break;
      case op::ternary_false:
        if (!left.is_nil())
          return left;
        break;
      default: break;
    }
    auto right = eval(n.rhs);
    return apply(n, left, right);
  }

  expr_value apply(const expr_ast::node& n, const expr_value& left, const expr_value& right) {
    auto numbers = [&](std::string_view format) {
      if (!left.is_number())
        type_error(format, left, n.kind);
      if (!right.is_number())
        type_error(format, right, n.kind);
    };
    switch (n.kind) {
      case op::and_:
      case op::or_:
        if (!left.is_bool())
          type_error(logical_error, left, n.kind);
        if (!right.is_bool())
          type_error(logical_error, right, n.kind);
        return std::get<bool>(right.v);
      case op::coalesce:
      case op::ternary_false: return right;
      case op::ternary_true:
        if (!left.is_bool())
          type_error(ternary_error, left, n.kind);
        return right;
      case op::eq: return deep_equal(left, right);
      case op::ne: return !deep_equal(left, right);
      case op::gt:
      case op::ge:
      case op::lt:
      case op::le: return compare(n.kind, left, right);
      case op::req:
      case op::nreq: return regex_match(n, left, right);
      case op::in: {
        if (!right.is_array())
          type_error(comparator_error, right, n.kind);
        for (const auto& item : std::get<std::shared_ptr<const expr_array>>(right.v)->items)
          if (deep_equal(left, item))
            return true;
        return false;
      }
      case op::add:
        if (left.is_string() || right.is_string())
          return to_display(left) + to_display(right);
        if (!left.is_number() || !right.is_number())
          type_error(modifier_error, left, n.kind);
        return num(left) + num(right);
      default: break;
    }
    numbers(modifier_error);
    double a = num(left), b = num(right);
    switch (n.kind) {
      case op::sub: return a - b;
      case op::mul: return a * b;
      case op::div: return a / b;
      case op::mod: return std::fmod(a, b);
      case op::pow: return std::pow(a, b);
      case op::bit_and: return static_cast<double>(to_int64(a) & to_int64(b));
      case op::bit_or: return static_cast<double>(to_int64(a) | to_int64(b));
      case op::bit_xor: return static_cast<double>(to_int64(a) ^ to_int64(b));
      case op::shl: return shift(to_int64(a), b, true);
      case op::shr: return shift(to_int64(a), b, false);
      default: throw expr_error(fmt::format("unknown operator '{}'", expr_ast::symbol(n.kind)));
    }
  }

  static bool compare(op o, const expr_value& left, const expr_value& right) {
    if (left.is_number() && right.is_number()) {
      double a = num(left), b = num(right);
      return o == op::gt ? a > b : o == op::ge ? a >= b : o == op::lt ? a < b : a <= b;
    }
    if (left.is_string() && right.is_string()) {
      int c = str(left).compare(str(right));
      return o == op::gt ? c > 0 : o == op::ge ? c >= 0 : o == op::lt ? c < 0 : c <= 0;
    }
    type_error(comparator_error, left, o);
  }

  static bool regex_match(const expr_ast::node& n, const expr_value& left, const expr_value& right) {
    if (!left.is_string())
      type_error(comparator_error, left, n.kind);
    if (!right.is_string())
      type_error(comparator_error, right, n.kind);
    bool matched;
    if (n.regex) {
      matched = RE2::PartialMatch(str(left), *n.regex);
    } else {
      RE2::Options options;
      options.set_log_errors(false);
      RE2 re(str(right), options);
      if (!re.ok())
        throw expr_error(
          fmt::format("Unable to compile regexp pattern '{}': {}", str(right), re.error()));
      matched = RE2::PartialMatch(str(left), re);
    }
    return n.kind == op::req ? matched : !matched;
  }

  const expression::impl& p_;
  std::span<const expr_value* const> bound_;
};

} // namespace

expr_value expression::evaluate(std::span<const expr_value* const> bound) const {
  if (impl_->root < 0)
    return {};
  return evaluator(*impl_, bound).eval(impl_->root);
}

const std::vector<std::string>& expression::variables() const noexcept {
  return impl_->variables;
}

const std::string& expression::text() const noexcept {
  return impl_->text;
}

expression::expression() : impl_(std::make_shared<impl>()) {}
expression::~expression() = default;
expression::expression(const expression&) = default;
expression& expression::operator=(const expression&) = default;
expression::expression(expression&&) noexcept = default;
expression& expression::operator=(expression&&) noexcept = default;

} // namespace ganglion::dsl
