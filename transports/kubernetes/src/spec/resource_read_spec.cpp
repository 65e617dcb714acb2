#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "client/resource_time.hpp"
#include "spec/resource_spec_steps.hpp"

namespace ganglion::kubernetes::detail {

using namespace dsl::detail;

namespace {

std::vector<resource_selector> read_selectors(const YAML::Node& filter, std::string_view key) {
  std::vector<resource_selector> out;
  auto list = child(filter, key);
  if (is_absent(list) || !list.IsSequence())
    return out;
  for (std::size_t i = 0; i < list.size(); ++i)
    out.push_back(resource_selector{read_string(list[i], "key"), read_string(list[i], "operation"),
                                    read_string(list[i], "value")});
  return out;
}

std::optional<resource_filter> read_filter(const YAML::Node& node, const std::string& path,
                                           const load_context& cx) {
  auto filter = child(node, "filter");
  if (is_absent(filter) || !filter.IsMap())
    return std::nullopt;
  resource_filter out;
  out.prefix = read_string(filter, "prefix");
  out.labels = read_selectors(filter, "labels");
  out.fields = read_selectors(filter, "fields");
  out.after_start = read_bool(filter, "afterStart");
  // metav1.Time: empty or null is the zero time (no filter).
  if (auto created = read_string(filter, "createdBy"); !created.empty()) {
    out.created_by = parse_rfc3339(created);
    if (!out.created_by)
      cx.error(child_path(child_path(path, "filter"), "createdBy"),
               "createdBy must be an RFC 3339 time such as 2019-04-06T12:52:11Z, got \""
                 + created + "\"");
  }
  return out;
}

} // namespace

resource_event_spec read_resource_event(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  resource_event_spec out;
  out.namespace_ = read_string(node, "namespace");
  out.group = read_string(node, "group");
  out.version = read_string(node, "version");
  out.resource = read_string(node, "resource");
  out.event_types = read_string_list(node, "eventTypes");
  out.filter = read_filter(node, in.path, in.cx);
  out.metadata = read_string_map(node, "metadata");
  return out;
}

} // namespace ganglion::kubernetes::detail
