#include "explain_log.hpp"

#include <nlohmann/json.hpp>

namespace ganglion::core {

void explain_log::record(const std::string& dependency, explained_verdict verdict) {
  std::unique_lock lock{mutex_, std::try_to_lock};
  if (!lock.owns_lock())
    return;
  auto& list = verdicts_[dependency];
  list.push_front(std::move(verdict));
  if (list.size() > per_dependency_)
    list.pop_back();
}

std::string explain_log::to_json(const std::string& sensor) const {
  nlohmann::json deps = nlohmann::json::object();
  {
    std::lock_guard lock{mutex_};
    for (const auto& [name, list] : verdicts_) {
      auto& out = deps[name] = nlohmann::json::array();
      for (const auto& v : list) {
        nlohmann::json item{{"time", v.time}, {"eventId", v.event_id}, {"pass", v.pass}};
        if (!v.pass) {
          item["kind"] = v.kind;
          item["reason"] = v.reason;
        }
        out.push_back(std::move(item));
      }
    }
  }
  return nlohmann::json{{"sensor", sensor}, {"dependencies", deps}}.dump(2);
}

} // namespace ganglion::core
