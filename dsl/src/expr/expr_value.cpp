// Expression values: conversion from JSON, Go's DeepEqual and Go's `%v` rendering.

#include <charconv>
#include <cmath>

#include "expr/expr_ast.hpp"
#include "ganglion/dsl/expr/expr.hpp"
#include "go/strconv.hpp"

namespace ganglion::dsl {

expr_value expr_value::from_json(simdjson::dom::element element) {
  using simdjson::dom::element_type;
  bool b = false;
  double d = 0;
  std::int64_t i = 0;
  std::uint64_t u = 0;
  std::string_view s;
  simdjson::dom::array array;
  simdjson::dom::object object;
  switch (element.type()) {
    case element_type::NULL_VALUE: return {};
    case element_type::BOOL: return element.get(b) ? expr_value() : expr_value(b);
    case element_type::INT64: return element.get(i) ? expr_value() : expr_value(double(i));
    case element_type::UINT64: return element.get(u) ? expr_value() : expr_value(double(u));
    case element_type::DOUBLE: return element.get(d) ? expr_value() : expr_value(d);
    case element_type::STRING:
      return element.get(s) ? expr_value() : expr_value(std::string(s));
    case element_type::ARRAY: {
      auto out = std::make_shared<expr_array>();
      if (!element.get(array))
        for (auto item : array)
          out->items.push_back(from_json(item));
      return std::shared_ptr<const expr_array>(std::move(out));
    }
    case element_type::OBJECT: {
      auto out = std::make_shared<expr_object>();
      if (!element.get(object))
        for (auto field : object)
          out->members.insert_or_assign(std::string(field.key), from_json(field.value));
      return std::shared_ptr<const expr_object>(std::move(out));
    }
  }
  return {};
}

bool deep_equal(const expr_value& a, const expr_value& b) {
  if (a.v.index() != b.v.index())
    return false;
  switch (a.v.index()) {
    case 0: return true;
    case 1: return std::get<bool>(a.v) == std::get<bool>(b.v);
    case 2: return std::get<double>(a.v) == std::get<double>(b.v);
    case 3: return std::get<std::string>(a.v) == std::get<std::string>(b.v);
    case 4: {
      const auto& x = std::get<std::shared_ptr<const expr_array>>(a.v)->items;
      const auto& y = std::get<std::shared_ptr<const expr_array>>(b.v)->items;
      if (x.size() != y.size())
        return false;
      for (std::size_t i = 0; i < x.size(); ++i)
        if (!deep_equal(x[i], y[i]))
          return false;
      return true;
    }
    default: {
      const auto& x = std::get<std::shared_ptr<const expr_object>>(a.v)->members;
      const auto& y = std::get<std::shared_ptr<const expr_object>>(b.v)->members;
      if (x.size() != y.size())
        return false;
      for (auto i = x.begin(), j = y.begin(); i != x.end(); ++i, ++j)
        if (i->first != j->first || !deep_equal(i->second, j->second))
          return false;
      return true;
    }
  }
}

namespace {

// Go's %v of a float64: shortest digits, exponent form below 1e-4 and from 1e21.
std::string go_float(double d) {
  if (std::isnan(d))
    return "NaN";
  if (std::isinf(d))
    return d > 0 ? "+Inf" : "-Inf";
  double magnitude = std::fabs(d);
  if (d != 0 && (magnitude < 1e-4 || magnitude >= 1e21)) {
    char buf[64];
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific);
    return std::string(buf, end);
  }
  return go::format_float(d);
}

void display(std::string& out, const expr_value& value) {
  switch (value.v.index()) {
    case 0: out += "<nil>"; return;
    case 1: out += std::get<bool>(value.v) ? "true" : "false"; return;
    case 2: out += go_float(std::get<double>(value.v)); return;
    case 3: out += std::get<std::string>(value.v); return;
    case 4: {
      out += '[';
      bool first = true;
      for (const auto& item : std::get<std::shared_ptr<const expr_array>>(value.v)->items) {
        if (!first)
          out += ' ';
        first = false;
        display(out, item);
      }
      out += ']';
      return;
    }
    default: {
      out += "map[";
      bool first = true;
      for (const auto& [key, item] : std::get<std::shared_ptr<const expr_object>>(value.v)->members) {
        if (!first)
          out += ' ';
        first = false;
        out += key;
        out += ':';
        display(out, item);
      }
      out += ']';
    }
  }
}

} // namespace

std::string to_display(const expr_value& value) {
  std::string out;
  display(out, value);
  return out;
}

std::string_view expr_ast::symbol(op o) noexcept {
  switch (o) {
    case op::literal: return "literal";
    case op::variable: return "variable";
    case op::list: return ",";
    case op::negate: return "-";
    case op::invert: return "!";
    case op::bit_not: return "~";
    case op::or_: return "||";
    case op::and_: return "&&";
    case op::eq: return "==";
    case op::ne: return "!=";
    case op::gt: return ">";
    case op::ge: return ">=";
    case op::lt: return "<";
    case op::le: return "<=";
    case op::req: return "=~";
    case op::nreq: return "!~";
    case op::in: return "in";
    case op::bit_and: return "&";
    case op::bit_or: return "|";
    case op::bit_xor: return "^";
    case op::shl: return "<<";
    case op::shr: return ">>";
    case op::add: return "+";
    case op::sub: return "-";
    case op::mul: return "*";
    case op::div: return "/";
    case op::mod: return "%";
    case op::pow: return "**";
    case op::ternary_true: return "?";
    case op::ternary_false: return ":";
    case op::coalesce: return "??";
  }
  return "?";
}

} // namespace ganglion::dsl
