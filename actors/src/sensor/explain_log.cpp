#include "sensor/explain_log.hpp"

#include <nlohmann/json.hpp>

#include "ganglion/core/event.hpp"

namespace ganglion::core {

void explain_log::record(std::string_view dependency, std::chrono::system_clock::time_point time,
                         std::string_view event_id, bool pass, std::string_view kind,
                         std::string_view reason) {
  std::unique_lock lock{mutex_, std::try_to_lock};
  if (!lock.owns_lock() || per_dependency_ == 0)
    return;
  auto it = verdicts_.find(dependency);
  if (it == verdicts_.end())
    it = verdicts_.emplace(std::string(dependency), ring{}).first;
  auto& r = it->second;
  if (r.slots.size() < per_dependency_)
    r.slots.emplace_back();
  auto& slot = r.slots[r.next];
  r.next = (r.next + 1) % per_dependency_;
  slot.time = time;
  slot.event_id.assign(event_id);
  slot.pass = pass;
  slot.kind.assign(kind);
  slot.reason.assign(reason);
}

void explain_log::set_dependencies(std::vector<std::string> names,
                                   std::map<std::string, std::string> unfed) {
  std::lock_guard lock{state_mutex_};
  dependencies_ = std::move(names);
  unfed_ = std::move(unfed);
}

void explain_log::set_waiting(std::vector<waiting_trigger> waiting) {
  std::lock_guard lock{state_mutex_};
  waiting_ = std::move(waiting);
}

std::string explain_log::to_json(const std::string& sensor) const {
  nlohmann::json deps = nlohmann::json::object();
  nlohmann::json unfed = nlohmann::json::object();
  nlohmann::json waiting = nlohmann::json::object();
  {
    std::lock_guard lock{state_mutex_};
    for (const auto& name : dependencies_)
      deps[name] = nlohmann::json::array();
    for (const auto& [name, why] : unfed_)
      unfed[name] = why;
    for (const auto& w : waiting_) {
      nlohmann::json holds = nlohmann::json::object();
      for (const auto& h : w.holds)
        holds[h.dependency] = {{"eventId", h.event_id}, {"since", h.since}};
      waiting[w.trigger] = {
        {"condition", w.condition}, {"holds", std::move(holds)}, {"waitsFor", w.waits_for}};
    }
  }
  {
    std::lock_guard lock{mutex_};
    for (const auto& [name, r] : verdicts_) {
      auto& out = deps[name] = nlohmann::json::array();
      auto n = r.slots.size();
      for (std::size_t i = 1; i <= n; ++i) {
        const auto& v = r.slots[(r.next + n - i) % n];
        nlohmann::json item{
          {"time", to_rfc3339(v.time)}, {"eventId", v.event_id}, {"pass", v.pass}};
        if (!v.pass) {
          item["kind"] = v.kind;
          item["reason"] = v.reason;
        }
        out.push_back(std::move(item));
      }
    }
  }
  return nlohmann::json{{"sensor", sensor},
                        {"dependencies", deps},
                        {"unfed", unfed},
                        {"waiting", waiting}}
    .dump(2);
}

} // namespace ganglion::core
