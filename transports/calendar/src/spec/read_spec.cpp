#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::calendar::detail {

using namespace dsl::detail;

event_spec read_event(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  event_spec out;
  out.schedule = read_string(node, "schedule");
  out.interval = read_string(node, "interval");
  out.exclusion_dates = read_string_list(node, "exclusionDates");
  out.timezone = read_string(node, "timezone");
  out.metadata = read_string_map(node, "metadata");
  if (auto p = child(node, "persistence"); !is_absent(p) && p.IsMap()) {
    persistence_spec persistence;
    if (auto c = child(p, "catchup"); !is_absent(c) && c.IsMap()) {
      persistence.catchup = read_bool(c, "enabled");
      persistence.catchup_max = read_string(c, "maxDuration");
    }
    if (auto m = child(p, "configMap"); !is_absent(m) && m.IsMap()) {
      persistence.config_map = read_string(m, "name");
      persistence.create_if_not_exist = read_bool(m, "createIfNotExist");
    }
    out.persistence = persistence;
  }
  return out;
}

} // namespace ganglion::calendar::detail
