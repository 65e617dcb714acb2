#include <algorithm>

#include "ganglion/dsl/kind/read.hpp"
#include "load/load_kinds.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::dsl::detail {

namespace {

std::optional<dependency_filter> read_filters(const YAML::Node& node) {
  if (is_absent(node) || !node.IsMap())
    return std::nullopt;
  dependency_filter out;
  if (auto time = child(node, "time"); !is_absent(time) && time.IsMap())
    out.time = time_filter{read_string(time, "start"), read_string(time, "stop"),
                           read_string(time, "timezone")};
  if (auto ctx = child(node, "context"); !is_absent(ctx) && ctx.IsMap()) {
    event_context c;
    c.id = read_string(ctx, "id");
    c.source = read_string(ctx, "source");
    c.specversion = read_string(ctx, "specversion");
    c.type = read_string(ctx, "type");
    c.datacontenttype = read_string(ctx, "datacontenttype");
    c.subject = read_string(ctx, "subject");
    c.time = read_string(ctx, "time");
    out.context = std::move(c);
  }
  if (auto data = child(node, "data"); data.IsSequence()) {
    for (std::size_t i = 0; i < data.size(); ++i) {
      const auto item = data[i];
      data_filter f;
      f.path = read_string(item, "path");
      f.type = read_string(item, "type");
      f.value = read_string_list(item, "value");
      f.comparator = read_string(item, "comparator");
      f.template_ = read_string(item, "template");
      out.data.push_back(std::move(f));
    }
  }
  if (auto exprs = child(node, "exprs"); exprs.IsSequence()) {
    for (std::size_t i = 0; i < exprs.size(); ++i) {
      const auto item = exprs[i];
      expr_filter f;
      f.expr = read_string(item, "expr");
      if (auto fields = child(item, "fields"); fields.IsSequence())
        for (std::size_t j = 0; j < fields.size(); ++j)
          f.fields.push_back(
            expr_field{read_string(fields[j], "path"), read_string(fields[j], "name")});
      out.exprs.push_back(std::move(f));
    }
  }
  out.data_logical_operator = read_string(node, "dataLogicalOperator");
  out.expr_logical_operator = read_string(node, "exprLogicalOperator");
  out.script = read_string(node, "script");
  return out;
}

event_dependency read_dependency(const YAML::Node& node) {
  event_dependency out;
  out.name = read_string(node, "name");
  out.event_source_name = read_string(node, "eventSourceName");
  out.event_name = read_string(node, "eventName");
  out.filters = read_filters(child(node, "filters"));
  if (auto t = child(node, "transform"); !is_absent(t) && t.IsMap())
    out.transform = dependency_transform{read_string(t, "jq"), read_string(t, "script")};
  out.filters_logical_operator = read_string(node, "filtersLogicalOperator");
  return out;
}

} // namespace

sensor load_sensor(const YAML::Node& root, const load_context& cx) {
  sensor out;
  out.metadata = read_object_meta(child(root, "metadata"));
  auto spec = child(root, "spec");
  if (auto deps = child(spec, "dependencies"); deps.IsSequence())
    for (std::size_t i = 0; i < deps.size(); ++i)
      out.spec.dependencies.push_back(read_dependency(deps[i]));
  if (auto triggers = child(spec, "triggers"); triggers.IsSequence())
    for (std::size_t i = 0; i < triggers.size(); ++i)
      out.spec.triggers.push_back(
        load_trigger(triggers[i], item_path("spec.triggers", i), cx));
  out.spec.event_bus_name = read_string(spec, "eventBusName", out.spec.event_bus_name);
  if (out.spec.event_bus_name.empty())
    out.spec.event_bus_name = "default";
  out.spec.replicas = static_cast<std::int32_t>(
    std::clamp<std::int64_t>(read_int(spec, "replicas", 1), 1, INT32_MAX));
  out.spec.service_account_name = read_string(child(spec, "template"), "serviceAccountName");
  out.spec.error_on_failed_round = read_bool(spec, "errorOnFailedRound");
  out.spec.logging_fields = read_string_map(spec, "loggingFields");
  return out;
}

} // namespace ganglion::dsl::detail
