#include "ganglion/kubernetes/cluster_status.hpp"

#include <chrono>
#include <map>
#include <mutex>

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

namespace ganglion::kubernetes {

namespace {

using json = nlohmann::json;

condition truth(std::string type) {
  return condition{std::move(type), "True"};
}

condition falsity(std::string type, std::string reason, std::string message) {
  return condition{std::move(type), "False", std::move(reason), std::move(message)};
}

bool below(const std::string& path, const std::string& prefix) {
  return path.compare(0, prefix.size(), prefix) == 0
         && (path.size() == prefix.size() || path[prefix.size()] == '.'
             || path[prefix.size()] == '[');
}

condition deployed(const object_verdict& v) {
  if (!v.error.empty())
    return falsity("Deployed", "InvalidSpec", "not run: the spec is invalid");
  if (!v.not_running.empty())
    return falsity("Deployed", "NotRunning", v.not_running);
  return truth("Deployed");
}

/// `path: message` (the message alone for a problem of the whole object).
std::string problem(const object_verdict& v) {
  return v.error_path.empty() ? v.error : v.error_path + ": " + v.error;
}

std::string rfc3339_now() {
  auto now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", now);
}

/// The conditions of a status JSON text, without their times; by type.
std::map<std::string, std::pair<condition, std::string>> current_of(const std::string& status) {
  std::map<std::string, std::pair<condition, std::string>> out;
  auto j = json::parse(status, nullptr, false);
  if (!j.is_object() || !j.contains("conditions") || !j["conditions"].is_array())
    return out;
  for (const auto& c : j["conditions"]) {
    if (!c.is_object())
      continue;
    condition k{c.value("type", ""), c.value("status", ""), c.value("reason", ""),
                c.value("message", "")};
    auto type = k.type;
    out[type] = {std::move(k), c.value("lastTransitionTime", "")};
  }
  return out;
}

} // namespace

std::vector<condition> conditions_of(const std::string& kind, const object_verdict& v) {
  const bool valid = v.error.empty();
  std::vector<condition> out;
  if (kind == "EventSource") {
    out.push_back(valid ? truth("SourcesProvided")
                        : falsity("SourcesProvided", "InvalidEventSource", problem(v)));
  } else if (kind == "Sensor") {
    if (valid) {
      out.push_back(truth("DependenciesProvided"));
      out.push_back(truth("TriggersProvided"));
    } else if (below(v.error_path, "spec.triggers")) {
      out.push_back(truth("DependenciesProvided"));
      out.push_back(falsity("TriggersProvided", "InvalidTriggers", problem(v)));
    } else {
      out.push_back(
        falsity("DependenciesProvided",
                below(v.error_path, "spec.dependencies") ? "InvalidDependencies" : "InvalidSpec",
                problem(v)));
      out.push_back(condition{"TriggersProvided", "Unknown"});
    }
  } else {
    out.push_back(valid ? truth("Configured") : falsity("Configured", "InvalidSpec", problem(v)));
  }
  out.push_back(deployed(v));
  return out;
}

/// By uid: the conditions of a write in flight, and the last failure logged.
struct status_writer::state {
  std::mutex mutex;
  std::map<std::string, std::vector<condition>> sent;
  std::map<std::string, std::string> failed;
};

status_writer::status_writer(std::shared_ptr<api_client> client)
  : client_(std::move(client)), state_(std::make_shared<state>()) {}

void status_writer::write(const cluster_object& object, const std::vector<condition>& conditions) {
  auto current = current_of(object.status);
  bool same = current.size() == conditions.size();
  for (const auto& c : conditions)
    same = same && current.count(c.type) && current[c.type].first == c;
  if (same)
    return;
  {
    std::lock_guard guard{state_->mutex};
    auto it = state_->sent.find(object.uid);
    if (it != state_->sent.end() && it->second == conditions)
      return;
    state_->sent[object.uid] = conditions;
  }
  auto now = rfc3339_now();
  json list = json::array();
  for (const auto& c : conditions) {
    json one{{"type", c.type}, {"status", c.status}};
    auto was = current.find(c.type);
    one["lastTransitionTime"] = was != current.end() && was->second.first.status == c.status
                                    && !was->second.second.empty()
                                  ? was->second.second
                                  : now;
    if (!c.reason.empty())
      one["reason"] = c.reason;
    if (!c.message.empty())
      one["message"] = c.message;
    list.push_back(std::move(one));
  }
  api_request request;
  request.method = "PATCH";
  request.path = object.status_path();
  request.content_type = "application/merge-patch+json";
  request.body = json{{"status", {{"conditions", std::move(list)}}}}.dump();
  client_->request(std::move(request), [shared = state_, uid = object.uid,
                                        label = object.label()](api_response response) {
    std::lock_guard guard{shared->mutex};
    shared->sent.erase(uid);
    if (response.ok()) {
      shared->failed.erase(uid);
      return;
    }
    auto message = response.message();
    auto& last = shared->failed[uid];
    if (last != message)
      spdlog::error("cannot write the status of {}: {}", label, message);
    last = message;
  });
}

} // namespace ganglion::kubernetes
