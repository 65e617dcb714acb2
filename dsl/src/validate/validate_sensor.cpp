#include <map>

#include "ganglion/dsl/filter/filter_eval.hpp"
#include "ganglion/dsl/filter/precompiled_filters.hpp"
#include "ganglion/dsl/filter/time_filter.hpp"
#include "validate/validate.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "validate/filter_cache.hpp"
#include "validate/validate_compile.hpp"
#include "go/time_zone.hpp"
#include "validate/validate_trigger.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::dsl::detail {

namespace {

void validate_logical_operator(const std::string& value, const std::string& path,
                               const load_context& cx) {
  if (value != "" && value != "and" && value != "or")
    cx.error(path, "must be \"and\" or \"or\", got \"" + value + "\"");
}

/// `compiled`: the dependency's filters compiled as a whole, so their parts need no compiling
/// again to be located.
void validate_data_filter(const data_filter& f, const std::string& path, bool compiled,
                          const load_context& cx) {
  static const std::set<std::string> comparators{"", ">=", ">", "=", "!=", "<", "<="};
  if (!comparators.contains(f.comparator))
    cx.error(child_path(path, "comparator"),
             "comparator must be one of >=, >, =, !=, <, <=, got \"" + f.comparator + "\"");
  if (require(f.path, child_path(path, "path"), "path", cx) && !compiled)
    check_json_path(f.path, child_path(path, "path"), cx);
  if (!f.template_.empty() && !compiled)
    check_go_template(f.template_, child_path(path, "template"), cx);
  if (require(f.type, child_path(path, "type"), "type", cx) && f.type != "bool"
      && f.type != "number" && f.type != "string")
    cx.error(child_path(path, "type"),
             "type must be bool, number or string, got \"" + f.type + "\"");
  auto values = child_path(path, "value");
  if (f.value.empty()) {
    cx.error(values, "value must list at least one value");
    return;
  }
  for (std::size_t i = 0; i < f.value.size(); ++i) {
    const auto& v = f.value[i];
    auto at = item_path(values, i);
    if (v.empty())
      cx.error(at, "value must not be empty");
    else if (f.type == "number" && !go_parse_float(v))
      cx.error(at, "\"" + v + "\" is not a number");
    else if (f.type == "bool" && !go_parse_bool(v))
      cx.error(at, "\"" + v + "\" is not a boolean (1, t, true, 0, f, false …)");
    else if (f.type == "string" && !compiled)
      check_regex(v, at, cx);
  }
}

void validate_time_filter(const time_filter& f, const std::string& path, const load_context& cx) {
  bool zone_ok = detail::time_zone_exists(f.timezone);
  if (!zone_ok)
    cx.error(child_path(path, "timezone"), "unknown time zone \"" + f.timezone + "\"");
  auto start = parse_clock_time(f.start);
  auto stop = parse_clock_time(f.stop);
  if (!start)
    cx.error(child_path(path, "start"), "start must be a time of day HH:MM:SS, got \"" + f.start
                                          + "\"");
  if (!stop)
    cx.error(child_path(path, "stop"), "stop must be a time of day HH:MM:SS, got \"" + f.stop
                                         + "\"");
  if (start && stop && *start == *stop)
    cx.error(child_path(path, "stop"), "stop must differ from start (" + f.start + ")");
}

/// Checks `filters`; with `compiled`, its data and expr filters compiled as a whole, the
/// compilers are not run again on their parts.
void validate_filters(const dependency_filter& f, const std::string& path, bool compiled,
                      const load_context& cx) {
  validate_logical_operator(f.expr_logical_operator, child_path(path, "exprLogicalOperator"), cx);
  validate_logical_operator(f.data_logical_operator, child_path(path, "dataLogicalOperator"), cx);
  auto exprs = child_path(path, "exprs");
  for (std::size_t i = 0; i < f.exprs.size(); ++i) {
    const auto& e = f.exprs[i];
    auto at = item_path(exprs, i);
    if (require(e.expr, child_path(at, "expr"), "expr", cx) && !compiled)
      check_expression(e.expr, child_path(at, "expr"), cx);
    auto fields = child_path(at, "fields");
    if (e.fields.empty())
      cx.error(fields, "fields must list at least one field");
    for (std::size_t j = 0; j < e.fields.size(); ++j) {
      auto field_path = child_path(item_path(fields, j), "path");
      if (require(e.fields[j].path, field_path, "path", cx) && !compiled)
        check_json_path(e.fields[j].path, field_path, cx);
      require(e.fields[j].name, child_path(item_path(fields, j), "name"), "name", cx);
    }
  }
  auto data = child_path(path, "data");
  for (std::size_t i = 0; i < f.data.size(); ++i)
    validate_data_filter(f.data[i], item_path(data, i), compiled, cx);
  if (f.context) {
    const auto& c = *f.context;
    if (c.type.empty() && c.subject.empty() && c.source.empty() && c.datacontenttype.empty())
      cx.error(child_path(path, "context"),
               "context filter must set type, subject, source or datacontenttype "
               "(an empty one discards every event)");
  }
  if (f.time)
    validate_time_filter(*f.time, child_path(path, "time"), cx);
  if (!f.script.empty())
    check_lua(f.script, child_path(path, "script"), cx);
}

bool errors_since(std::size_t first, const load_context& cx) {
  for (auto i = first; i < cx.diagnostics.size(); ++i)
    if (cx.diagnostics[i].level == severity::error)
      return true;
  return false;
}

/// Compiles the data and expr filters as the sensor runs them (once per load for the same
/// filters); null (and `error` set) when they do not compile, and validate_filters() then
/// compiles each part to say where.
std::shared_ptr<const precompiled_filters> precompile(const dependency_filter& f,
                                                      const load_context& cx, std::string& error) {
  try {
    return cx.filters ? cx.filters->get(f) : precompile_filters(f);
  } catch (const std::exception& e) {
    error = e.what();
    return nullptr;
  }
}

/// Builds the time filter as the sensor does at run, so that what passed the checks above also
/// compiles there; a disagreement is reported at `time`.
void compile_time_filter(const dependency_filter& f, const std::string& path,
                         const load_context& cx) {
  if (!f.time)
    return;
  try {
    compiled_time_filter{*f.time};
  } catch (const std::exception& e) {
    cx.error(child_path(path, "time"), std::string{"time filter does not compile: "} + e.what());
  }
}

/// `transform`: run compiles jq when it is given, else the Lua script.
void validate_transform(const dependency_transform& t, const std::string& path,
                        const load_context& cx) {
  if (!t.jq.empty())
    check_jq(t.jq, child_path(path, "jq"), cx);
  else if (!t.script.empty())
    check_lua(t.script, child_path(path, "script"), cx);
}

std::set<std::string> validate_dependencies(std::vector<event_dependency>& deps,
                                            const load_context& cx) {
  std::set<std::string> names;
  std::map<std::string, std::size_t> first_index;
  if (deps.empty())
    cx.error("spec.dependencies", "a sensor needs at least one dependency");
  for (std::size_t i = 0; i < deps.size(); ++i) {
    auto& d = deps[i];
    auto at = item_path("spec.dependencies", i);
    if (require(d.name, child_path(at, "name"), "name", cx)) {
      if (auto [it, fresh] = first_index.emplace(d.name, i); !fresh)
        cx.error(child_path(at, "name"), "duplicate dependency name \"" + d.name + "\" (also "
                                           + item_path("spec.dependencies", it->second) + ")");
      names.insert(d.name);
    }
    require(d.event_source_name, child_path(at, "eventSourceName"), "eventSourceName", cx);
    require(d.event_name, child_path(at, "eventName"), "eventName", cx);
    if (d.filters) {
      auto first = cx.diagnostics.size();
      std::string error;
      auto compiled = precompile(*d.filters, cx, error);
      validate_filters(*d.filters, child_path(at, "filters"), compiled != nullptr, cx);
      if (!errors_since(first, cx)) {
        if (!compiled)
          cx.error(child_path(at, "filters"), error);
        compile_time_filter(*d.filters, child_path(at, "filters"), cx);
      }
      d.precompiled = std::move(compiled);
    }
    if (d.transform)
      validate_transform(*d.transform, child_path(at, "transform"), cx);
    validate_logical_operator(d.filters_logical_operator, child_path(at, "filtersLogicalOperator"),
                              cx);
  }
  return names;
}

} // namespace

void validate_sensor(sensor& s, const load_context& cx) {
  auto dependencies = validate_dependencies(s.spec.dependencies, cx);
  if (s.spec.triggers.empty())
    cx.error("spec.triggers", "a sensor needs at least one trigger");
  std::map<std::string, std::size_t> first_index;
  for (std::size_t i = 0; i < s.spec.triggers.size(); ++i) {
    auto& t = s.spec.triggers[i];
    auto at = item_path("spec.triggers", i);
    validate_trigger(t, at, dependencies, cx);
    const auto& name = t.template_.name;
    if (name.empty())
      continue;
    if (auto [it, fresh] = first_index.emplace(name, i); !fresh)
      cx.error(child_path(child_path(at, "template"), "name"),
               "duplicate trigger name \"" + name + "\" (also "
                 + item_path("spec.triggers", it->second) + ")");
  }
}

} // namespace ganglion::dsl::detail
