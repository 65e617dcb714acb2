#include "sensor/waiting_triggers.hpp"

#include <algorithm>

namespace ganglion::core {

std::vector<waiting_trigger> waiting_triggers(const sensor_core& core) {
  std::vector<waiting_trigger> out;
  for (const auto& t : core.triggers()) {
    if (!t.condition
        || std::none_of(t.present.begin(), t.present.end(), [](auto p) { return p != 0; }))
      continue;
    waiting_trigger w;
    w.trigger = t.name;
    w.condition = t.condition->text();
    const auto& variables = t.condition->variables();
    for (std::size_t v = 0; v < t.present.size() && v < variables.size(); ++v) {
      if (!t.present[v]) {
        w.waits_for.push_back(variables[v]);
        continue;
      }
      waiting_trigger::held h;
      h.dependency = variables[v];
      if (v < t.held.size() && t.held[v]) {
        h.event_id = t.held[v]->id;
        h.since = t.held[v]->time;
      }
      w.holds.push_back(std::move(h));
    }
    out.push_back(std::move(w));
  }
  return out;
}

bool has_joins(const sensor_core& core) {
  return std::any_of(core.triggers().begin(), core.triggers().end(), [](const auto& t) {
    return t.condition && t.condition->variables().size() > 1;
  });
}

void publish_waiting(explain_log* log, const sensor_core& core) {
  if (log)
    log->set_waiting(waiting_triggers(core));
}

} // namespace ganglion::core
