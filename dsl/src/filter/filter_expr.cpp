// Expr filters with the semantics of Argo's filterExpr (pkg/sensors/dependencies/filter.go).

#include <optional>

#include <fmt/format.h>

#include "ganglion/dsl/budget_exceeded.hpp"
#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/expr/expr.hpp"
#include "ganglion/dsl/filter/expr_filter.hpp"
#include "ganglion/dsl/path/json_eval.hpp"
#include "ganglion/dsl/path/json_path.hpp"

namespace ganglion::dsl {

namespace {

/// One compiled `exprs[]` entry.
struct compiled_expr {
  expression expr;
  std::vector<expr_field> fields;
  std::vector<json_path> paths;
  /// For each expression variable, the index of the field bound to it (the last field of that
  /// name, as Argo's map assignment leaves it), or -1.
  std::vector<int> field_of_variable;
};

compiled_expr compile_one(const expr_filter& spec) {
  compiled_expr out;
  out.expr = expression::compile(spec.expr);
  out.fields = spec.fields;
  for (const auto& f : spec.fields) {
    if (f.path.empty())
      throw compile_error(fmt::format("field '{}' has an empty path", f.name), 0);
    out.paths.push_back(json_path::compile(f.path));
  }
  for (const auto& name : out.expr.variables()) {
    int bound = -1;
    for (std::size_t i = 0; i < spec.fields.size(); ++i)
      if (spec.fields[i].name == name)
        bound = static_cast<int>(i);
    out.field_of_variable.push_back(bound);
  }
  return out;
}

std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0)
      out += separator;
    out += parts[i];
  }
  return out;
}

} // namespace

struct compiled_expr_filters::impl {
  std::vector<compiled_expr> filters;
  bool any = false;
};

compiled_expr_filters::compiled_expr_filters(const std::vector<expr_filter>& specs,
                                             const std::string& logical_operator)
  : impl_(std::make_unique<impl>()) {
  if (!logical_operator.empty() && logical_operator != "and" && logical_operator != "or")
    throw compile_error(
      fmt::format("exprLogicalOperator '{}' is not supported (and, or)", logical_operator), 0);
  impl_->any = logical_operator == "or";
  for (std::size_t i = 0; i < specs.size(); ++i) {
    try {
      impl_->filters.push_back(compile_one(specs[i]));
    } catch (const compile_error& e) {
      throw compile_error(fmt::format("exprs[{}]: {}", i, e.what()), e.offset());
    }
  }
}

compiled_expr_filters::~compiled_expr_filters() = default;
compiled_expr_filters::compiled_expr_filters(compiled_expr_filters&&) noexcept = default;
compiled_expr_filters& compiled_expr_filters::operator=(compiled_expr_filters&&) noexcept = default;

bool compiled_expr_filters::empty() const noexcept {
  return impl_->filters.empty();
}

filter_outcome compiled_expr_filters::evaluate(const event_view& event) const {
  const bool any = impl_->any;
  if (impl_->filters.empty() || (event.data_raw.empty() && !event.data_is_json))
    return {true, {}};
  auto data = parsed_data(event);
  if (!data)
    return {false, "expr filter error (event data not valid JSON)"};
  std::vector<std::string> errors;
  bool cut_off = false;
  // Scratch reused across events: evaluation allocates nothing for scalar fields.
  thread_local std::vector<expr_value> values;
  thread_local std::vector<const expr_value*> bound;
  for (const auto& f : impl_->filters) {
    values.clear();
    bool missing = false;
    for (std::size_t i = 0; i < f.paths.size() && !missing; ++i) {
      path_result result;
      try {
        result = dsl::evaluate(f.paths[i], *data);
      } catch (const budget_exceeded& e) {
        if (!any)
          return {false, fmt::format("expr filter error ({})", e.what()), {}, true};
        errors.emplace_back(e.what());
        cut_off = missing = true;
        break;
      }
      if (!result.exists()) {
        auto message = fmt::format("path '{}' does not exist", f.fields[i].path);
        if (!any)
          return {false, fmt::format("expr filter error ({})", message)};
        errors.push_back(std::move(message));
        missing = true;
        break;
      }
      values.push_back(result.kind() == json_kind::null ? expr_value()
                                                         : expr_value::from_json(result.element()));
    }
    if (missing || values.empty())
      continue;
    bound.clear();
    for (int field : f.field_of_variable)
      bound.push_back(field < 0 ? nullptr : &values[static_cast<std::size_t>(field)]);
    expr_value result;
    try {
      result = f.expr.evaluate(bound);
    } catch (const expr_error& e) {
      if (!any)
        return {false, fmt::format("expr filter error ({})", e.what())};
      errors.emplace_back(e.what());
      continue;
    }
    bool pass = result.is_bool() && std::get<bool>(result.v);
    if (pass && any)
      return {true, {}};
    if (!pass && !any)
      return {false, {}};
  }
  if (!any)
    return {true, {}};
  if (errors.empty())
    return {false, {}};
  return {false, fmt::format("expr filter errors [{}]", join(errors, " / ")), {}, cut_off};
}

std::string compiled_expr_filters::describe() const {
  std::vector<std::string> parts;
  for (const auto& f : impl_->filters) {
    std::vector<std::string> fields;
    for (const auto& field : f.fields)
      fields.push_back(fmt::format("{}={}", field.name, field.path));
    parts.push_back(fmt::format("expr {} [{}]", f.expr.text(), join(fields, ", ")));
  }
  return join(parts, impl_->any ? " or " : " and ");
}

bool compiled_expr_filters::builds_json() const noexcept {
  for (const auto& f : impl_->filters)
    for (const auto& path : f.paths)
      if (path.builds())
        return true;
  return false;
}

} // namespace ganglion::dsl
