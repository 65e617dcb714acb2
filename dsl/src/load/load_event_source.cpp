#include <algorithm>

#include "ganglion/dsl/kind/read.hpp"
#include "yaml/argo_types.hpp"
#include "load/load_kinds.hpp"
#include "ganglion/dsl/kind/spec_input.hpp"
#include "yaml/yaml_json.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "yaml/yaml_schema.hpp"

namespace ganglion::dsl {

const source_event* event_source_spec::find(std::string_view type, std::string_view name) const {
  for (const auto& e : events)
    if (e.type == type && e.name == name)
      return &e;
  return nullptr;
}

} // namespace ganglion::dsl

namespace ganglion::dsl::detail {

namespace {

/// `spec.<type>.<name>`: its JSON, its filter and, when the kind has a spec step, its model.
source_event read_event(const std::string& type, const std::string& name, const YAML::Node& node,
                        std::string_view schema_type, const load_context& cx) {
  source_event out;
  out.type = type;
  out.name = name;
  out.json = yaml_to_json(node, schema_type).dump();
  out.filter = read_source_filter(node);
  if (auto step = cx.options.kinds.sources.find(type); step != cx.options.kinds.sources.end()) {
    auto path = child_path(child_path("spec", type), name);
    out.spec = step->second.read(spec_read_input{node, path, cx});
  }
  return out;
}

} // namespace

event_source load_event_source(const YAML::Node& root, const load_context& cx) {
  event_source out;
  out.metadata = read_object_meta(child(root, "metadata"));
  auto spec = child(root, "spec");
  out.spec.event_bus_name = read_string(spec, "eventBusName", out.spec.event_bus_name);
  if (out.spec.event_bus_name.empty())
    out.spec.event_bus_name = "default";
  out.spec.replicas = static_cast<std::int32_t>(
    std::clamp<std::int64_t>(read_int(spec, "replicas", 1), 1, INT32_MAX));
  out.spec.service_account_name = read_string(child(spec, "template"), "serviceAccountName");
  if (!spec.IsMap())
    return out;
  for (auto it = spec.begin(); it != spec.end(); ++it) {
    if (!it->first.IsScalar() || !it->second.IsMap())
      continue;
    const auto& type = it->first.Scalar();
    if (std::find(event_source_types.begin(), event_source_types.end(), type)
        == event_source_types.end())
      continue;
    const auto* map_type = schema_field_type("EventSourceSpec", type);
    auto event_type = map_type ? std::string_view{*map_type}.substr(1) : std::string_view{"a"};
    for (auto ev = it->second.begin(); ev != it->second.end(); ++ev) {
      if (!ev->first.IsScalar())
        continue;
      out.spec.events.push_back(read_event(type, ev->first.Scalar(), ev->second, event_type, cx));
    }
  }
  return out;
}

} // namespace ganglion::dsl::detail
