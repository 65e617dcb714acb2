#include "github_hooks.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace ganglion::test {

namespace {

using json = nlohmann::json;

json to_json(const stored_hook& h) {
  return json{{"type", h.scope.starts_with("orgs/") ? "Organization" : "Repository"},
              {"id", h.id},
              {"name", "web"},
              {"active", h.active},
              {"events", h.events},
              {"config", json::parse(h.config)}};
}

} // namespace

github_hooks::github_hooks(std::function<bool(const std::string&)> accepted)
  : accepted_(std::move(accepted)) {}

std::optional<std::pair<unsigned, std::string>> github_hooks::answer(const hooks_request& request) {
  static const std::string root = "/api/v3/";
  const auto& target = request.target;
  if (!target.starts_with(root))
    return std::nullopt;
  auto rest = target.substr(root.size());
  auto hooks_at = rest.find("/hooks");
  if (hooks_at == std::string::npos || !(rest.starts_with("repos/") || rest.starts_with("orgs/")))
    return std::nullopt;
  auto scope = rest.substr(0, hooks_at);
  auto tail = rest.substr(hooks_at + 6);
  if (!tail.empty() && tail.front() != '/')
    return std::nullopt;
  auto slashes = std::count(scope.begin(), scope.end(), '/');
  if ((scope.starts_with("repos/") && slashes != 2) || (scope.starts_with("orgs/") && slashes != 1))
    return std::nullopt;
  {
    std::lock_guard lock{mutex_};
    requests_.push_back(request);
  }
  return handle(request, scope, tail.empty() ? std::string{} : tail.substr(1));
}

std::pair<unsigned, std::string> github_hooks::handle(const hooks_request& request,
                                                      const std::string& scope,
                                                      const std::string& id) {
  const auto& auth = request.authorization;
  auto token = auth.starts_with("token ") ? auth.substr(6) : std::string{};
  std::lock_guard lock{mutex_};
  if (down_)
    return {503, R"({"message":"Service Unavailable"})"};
  if (token.empty() || (!tokens_.count(token) && !accepted_(token)))
    return {401, R"({"message":"Bad credentials"})"};
  if (missing_.count(scope))
    return {404, R"({"message":"Not Found"})"};
  if (request.method == "GET" && id.empty()) {
    auto out = json::array();
    for (const auto& [_, h] : hooks_)
      if (h.scope == scope)
        out.push_back(to_json(h));
    return {200, out.dump()};
  }
  if (request.method == "POST" && id.empty()) {
    auto body = json::parse(request.body, nullptr, false);
    if (!body.is_object() || body.value("name", "") != "web" || !body.contains("config")
        || !body["config"].is_object() || !body["config"].contains("url"))
      return {422, R"({"message":"Validation Failed"})"};
    stored_hook h;
    h.id = next_id_++;
    h.scope = scope;
    h.config = body["config"].dump();
    if (body.contains("events") && body["events"].is_array())
      h.events = body["events"].get<std::vector<std::string>>();
    else
      h.events = {"push"};
    h.active = body.value("active", true);
    hooks_[h.id] = h;
    return {201, to_json(h).dump()};
  }
  if (request.method == "DELETE" && !id.empty()) {
    auto found = hooks_.find(std::stoll(id));
    if (found == hooks_.end() || found->second.scope != scope)
      return {404, R"({"message":"Not Found"})"};
    hooks_.erase(found);
    return {204, ""};
  }
  return {404, R"({"message":"Not Found"})"};
}

void github_hooks::accept_token(const std::string& token) {
  std::lock_guard lock{mutex_};
  tokens_.insert(token);
}

void github_hooks::set_missing(const std::string& scope) {
  std::lock_guard lock{mutex_};
  missing_.insert(scope);
}

void github_hooks::set_down(bool down) {
  std::lock_guard lock{mutex_};
  down_ = down;
}

std::int64_t github_hooks::add(const std::string& scope, const std::string& url,
                               const std::vector<std::string>& events) {
  std::lock_guard lock{mutex_};
  stored_hook h;
  h.id = next_id_++;
  h.scope = scope;
  h.config = json{{"url", url}, {"content_type", "json"}, {"insecure_ssl", "0"}}.dump();
  h.events = events;
  h.active = true;
  hooks_[h.id] = h;
  return h.id;
}

std::vector<stored_hook> github_hooks::hooks() const {
  std::lock_guard lock{mutex_};
  std::vector<stored_hook> out;
  for (const auto& [_, h] : hooks_)
    out.push_back(h);
  return out;
}

std::vector<hooks_request> github_hooks::requests() const {
  std::lock_guard lock{mutex_};
  return requests_;
}

} // namespace ganglion::test
