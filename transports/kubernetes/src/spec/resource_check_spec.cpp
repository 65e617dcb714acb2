#include <set>

#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "client/resource_selectors.hpp"
#include "spec/resource_spec_steps.hpp"

namespace ganglion::kubernetes::detail {

using namespace dsl::detail;

namespace {

/// The operations Argo's Selector documents (selection.Operator values).
bool known_operation(const std::string& op) {
  static const std::set<std::string> operations{"",   "!",     "=",      "==", "in",
                                                "!=", "notin", "exists", "gt", "lt"};
  return operations.contains(op);
}

void check_labels(const std::vector<resource_selector>& labels, const std::string& at,
                  const load_context& cx) {
  for (std::size_t i = 0; i < labels.size(); ++i) {
    auto item = item_path(at, i);
    const auto& s = labels[i];
    bool keyed = require(s.key, child_path(item, "key"), "key", cx);
    if (!known_operation(s.operation)) {
      cx.error(child_path(item, "operation"), "unknown selection operation \"" + s.operation + "\"");
      continue;
    }
    // Argo builds the label selector when the source starts and fails there; refused here.
    if (auto error = label_requirement_error(s); keyed && error)
      cx.error(item, *error);
  }
}

void check_fields(const std::vector<resource_selector>& fields, const std::string& at,
                  const load_context& cx) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    auto item = item_path(at, i);
    const auto& s = fields[i];
    if (!require(s.key, child_path(item, "key"), "key", cx))
      continue;
    if (!known_operation(s.operation)) {
      cx.error(child_path(item, "operation"), "unknown selection operation \"" + s.operation + "\"");
      continue;
    }
    if (!field_operation_supported(s.operation))
      cx.warning(child_path(item, "operation"),
                 "fields support =, == and != only: with \"" + s.operation
                   + "\" no object passes this filter (as in Argo)");
    if (auto error = field_matcher::compile_error(s))
      cx.error(item, *error);
  }
}

} // namespace

void check_resource_event(const resource_event_spec& spec, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  const auto& cx = in.cx;
  require(spec.version, child_path(at, "version"), "version", cx);
  require(spec.resource, child_path(at, "resource"), "resource", cx);
  auto types = child_path(at, "eventTypes");
  if (!present(cx, types))
    cx.error(types, "eventTypes is required");
  else if (spec.event_types.empty())
    cx.warning(types, "eventTypes is empty: no change of the resource is reported");
  for (std::size_t i = 0; i < spec.event_types.size(); ++i) {
    const auto& type = spec.event_types[i];
    if (type != "ADD" && type != "UPDATE" && type != "DELETE")
      cx.error(item_path(types, i), "unknown event type \"" + type + "\" (ADD, UPDATE or DELETE)");
  }
  if (!spec.filter)
    return;
  auto filter = child_path(at, "filter");
  check_labels(spec.filter->labels, child_path(filter, "labels"), cx);
  check_fields(spec.filter->fields, child_path(filter, "fields"), cx);
}

} // namespace ganglion::kubernetes::detail
