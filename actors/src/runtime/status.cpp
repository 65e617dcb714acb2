#include "ganglion/core/status.hpp"

#include <nlohmann/json.hpp>

#include "ganglion/core/event.hpp"
#include "ganglion/core/redact.hpp"

namespace ganglion::core {

const char* to_string(phase p) noexcept {
  switch (p) {
    case phase::pending:
      return "Pending";
    case phase::running:
      return "Running";
    case phase::restarting:
      return "Restarting";
    case phase::error:
      return "Error";
    case phase::stopped:
      return "Stopped";
    case phase::standby:
      return "Standby";
  }
  return "Unknown";
}

void execution_record::record(execution_status status) {
  redact_url_userinfo_in_place(status.error);
  redact_url_userinfo_in_place(status.detail);
  std::lock_guard guard{mutex_};
  if (!status.result.empty())
    last_result_ = status.result;
  last_ = std::move(status);
}

void execution_record::clear() {
  std::lock_guard guard{mutex_};
  last_.reset();
  last_result_.clear();
}

std::optional<execution_status> execution_record::last() const {
  std::lock_guard guard{mutex_};
  return last_;
}

std::string execution_record::last_result() const {
  std::lock_guard guard{mutex_};
  return last_result_;
}

void status_board::set(const std::string& kind, const std::string& name, phase p,
                       const std::string& error, const std::string& message) {
  std::lock_guard guard{mutex_};
  auto [it, added] = components_.try_emplace({kind, name});
  auto& entry = it->second;
  if (!added)
    blocking_ -= blocking(entry);
  entry.kind = kind;
  entry.name = name;
  if (entry.phase != p || entry.since.empty())
    entry.since = now_rfc3339();
  entry.phase = p;
  // Credentials in a URL stay out of /v1/status and /ready (redact.hpp).
  if (!error.empty())
    entry.last_error = redact_url_userinfo(error);
  entry.message = redact_url_userinfo(message);
  blocking_ += blocking(entry);
}

int status_board::blocking(const component_status& c) {
  // Sources must listen; sensors must have started (or have failed for good) so that an event
  // accepted once ready is matched; cluster mode must have listed what it runs.
  return (c.kind == "source" && c.phase != phase::running && c.phase != phase::standby)
         || (c.kind == "sensor" && c.phase == phase::pending)
         || (c.kind == "cluster" && c.phase != phase::running);
}

void status_board::count_restart(const std::string& kind, const std::string& name) {
  std::lock_guard guard{mutex_};
  auto [it, added] = components_.try_emplace({kind, name});
  if (added) {
    it->second.kind = kind;
    it->second.name = name;
    blocking_ += blocking(it->second);
  }
  ++it->second.restarts;
}

void status_board::clear_failures(const std::string& kind, const std::string& name) {
  std::lock_guard guard{mutex_};
  auto it = components_.find({kind, name});
  if (it == components_.end())
    return;
  it->second.last_error.clear();
  it->second.restarts = 0;
  if (it->second.executions)
    it->second.executions->clear();
}

std::shared_ptr<execution_record> status_board::executions(const std::string& kind,
                                                           const std::string& name) {
  std::lock_guard guard{mutex_};
  auto [it, added] = components_.try_emplace({kind, name});
  if (added) {
    it->second.kind = kind;
    it->second.name = name;
    it->second.since = now_rfc3339();
    blocking_ += blocking(it->second);
  }
  if (!it->second.executions)
    it->second.executions = std::make_shared<execution_record>();
  return it->second.executions;
}

void status_board::remove(const std::string& kind, const std::string& name) {
  std::lock_guard guard{mutex_};
  auto it = components_.find({kind, name});
  if (it == components_.end())
    return;
  blocking_ -= blocking(it->second);
  components_.erase(it);
}

std::vector<component_status> status_board::snapshot() const {
  std::lock_guard guard{mutex_};
  std::vector<component_status> out;
  out.reserve(components_.size());
  for (const auto& [key, entry] : components_)
    out.push_back(entry);
  return out;
}

bool status_board::all_sources_running() const {
  std::lock_guard guard{mutex_};
  return blocking_ == 0;
}

std::vector<std::string> status_board::blockers() const {
  std::lock_guard guard{mutex_};
  std::vector<std::string> out;
  for (const auto& [key, c] : components_) {
    if (!blocking(c))
      continue;
    auto line = c.kind + " " + c.name + ": " + to_string(c.phase);
    if (!c.message.empty())
      line += ": " + c.message;
    if (!c.last_error.empty())
      line += ": " + c.last_error;
    out.push_back(std::move(line));
  }
  return out;
}

namespace {

/// A JSON object reported by an executor; kept as text when it does not parse.
nlohmann::json result_json(const std::string& text) {
  auto parsed = nlohmann::json::parse(text, nullptr, false);
  return parsed.is_discarded() ? nlohmann::json(text) : parsed;
}

/// `lastExecution` and `lastResult` of a trigger.
void add_executions(nlohmann::json& item, const execution_record& record) {
  if (auto last = record.last()) {
    nlohmann::json execution{{"time", to_rfc3339(last->time)},
                             {"outcome", last->ok ? "Succeeded" : "Failed"}};
    if (!last->error.empty())
      execution["error"] = last->error;
    if (!last->detail.empty())
      execution["detail"] = last->detail;
    item["lastExecution"] = std::move(execution);
  }
  if (auto result = record.last_result(); !result.empty())
    item["lastResult"] = result_json(result);
}

} // namespace

std::string status_board::to_json() const {
  nlohmann::json components = nlohmann::json::array();
  for (const auto& c : snapshot()) {
    nlohmann::json item{{"kind", c.kind},
                        {"name", c.name},
                        {"phase", to_string(c.phase)},
                        {"restarts", c.restarts},
                        {"since", c.since}};
    if (!c.message.empty())
      item["message"] = c.message;
    if (!c.last_error.empty())
      item["lastError"] = c.last_error;
    if (c.executions)
      add_executions(item, *c.executions);
    components.push_back(std::move(item));
  }
  nlohmann::json config;
  {
    std::lock_guard guard{mutex_};
    config = {{"phase", config_.phase}, {"reloads", config_.reloads}, {"errors", config_.errors}};
    if (!config_.last_reload.empty())
      config["lastReload"] = config_.last_reload;
  }
  return nlohmann::json{{"components", components}, {"config", config}}.dump(2);
}

void status_board::set_config(config_status config) {
  for (auto& error : config.errors)
    redact_url_userinfo_in_place(error);
  std::lock_guard guard{mutex_};
  config_ = std::move(config);
}

} // namespace ganglion::core
