#include "bitbucket_server_api.hpp"

#include <atomic>
#include <mutex>

#include <nlohmann/json.hpp>

namespace ganglion::test {

namespace {

constexpr std::string_view prefix = "/rest/api/1.0/projects/";

sink_answer json_answer(int status, const nlohmann::json& body) {
  return {status, body.dump(), "application/json"};
}

sink_answer error_answer(int status, const std::string& message) {
  return json_answer(status, {{"errors", {{{"message", message}}}}});
}

} // namespace

struct bitbucket_server_api::impl {
  std::string authorization;
  mutable std::mutex mutex;
  std::map<std::string, std::map<long, std::string>> stored; ///< repo → id → body
  std::map<std::string, std::vector<std::string>> projects;  ///< key → slugs
  std::map<std::string, std::vector<std::string>> commit_prs; ///< `<key>/<slug>/<hash>` → states
  long next_id = 1;
  std::atomic<bool> down{false};
  http_sink sink{200}; ///< last: stopped before the state its handler reads goes

  nlohmann::json hook(long id, const std::string& body) const {
    auto out = nlohmann::json::parse(body);
    out["id"] = id;
    return out;
  }

  sink_answer repos(const std::string& key, const recorded_request& r) {
    auto query = r.target.substr(r.target.find('?') + 1);
    auto at = query.find("&start=");
    if (query.rfind("limit=", 0) != 0 || at == std::string::npos || at + 7 >= query.size()
        || query.find_first_not_of("0123456789", at + 7) != std::string::npos)
      return error_answer(400, "limit and start are expected");
    auto start = std::stoul(query.substr(at + 7));
    const auto& slugs = projects[key];
    auto values = nlohmann::json::array();
    for (auto i = start; i < slugs.size() && i < start + 2; ++i)
      values.push_back({{"slug", slugs[i]}, {"project", {{"key", key}}}});
    bool last = start + 2 >= slugs.size();
    nlohmann::json page{{"values", values},
                        {"isLastPage", last},
                        {"start", start},
                        {"size", values.size()},
                        {"limit", 2}};
    if (!last)
      page["nextPageStart"] = start + 2;
    return json_answer(200, page);
  }

  /// A commit's pull requests, `target` past the prefix: `<key>/repos/<slug>/commits/<hash>/…`.
  sink_answer commit_pull_requests(std::string_view target, const recorded_request& r) {
    if (r.method != "GET" || r.header("Authorization") != authorization
        || !r.header("X-Atlassian-Token").empty())
      return error_answer(401, "Authentication failed");
    auto query_at = target.find("/pull-requests?limit=500&start=");
    auto start_text = target.substr(query_at + 31);
    if (start_text.empty() || start_text.size() > 6
        || start_text.find_first_not_of("0123456789") != std::string_view::npos)
      return error_answer(400, "limit=500 and start are expected");
    auto path = std::string(target.substr(0, query_at));
    auto repos_at = path.find("/repos/");
    auto commits_at = path.find("/commits/");
    if (repos_at == std::string::npos || commits_at == std::string::npos)
      return error_answer(404, "not found");
    auto key = path.substr(0, repos_at) + "/" + path.substr(repos_at + 7, commits_at - repos_at - 7)
               + "/" + path.substr(commits_at + 9);
    std::lock_guard lock{mutex};
    const auto& states = commit_prs[key];
    auto start = std::stoul(std::string(start_text));
    auto values = nlohmann::json::array();
    for (auto i = start; i < states.size() && i < start + 2; ++i)
      values.push_back({{"id", i + 1}, {"state", states[i]}, {"title", "a pull request"}});
    bool last = start + 2 >= states.size();
    nlohmann::json page{{"values", values},     {"isLastPage", last}, {"start", start},
                        {"size", values.size()}, {"limit", 2}};
    if (!last)
      page["nextPageStart"] = start + 2;
    return json_answer(200, page);
  }

  sink_answer answer(const recorded_request& r) {
    if (down)
      return {503, "service unavailable"};
    if (r.target.rfind(prefix, 0) == 0 && r.target.find("/commits/") != std::string::npos
        && r.target.find("/pull-requests?limit=500&start=") != std::string::npos)
      return commit_pull_requests(std::string_view(r.target).substr(prefix.size()), r);
    if (r.header("Authorization") != authorization || r.header("X-Atlassian-Token") != "no-check")
      return error_answer(401, "Authentication failed");
    std::string_view target = r.target;
    if (target.substr(0, prefix.size()) != prefix)
      return error_answer(404, "not found");
    target.remove_prefix(prefix.size());
    auto slash = target.find('/');
    if (slash == std::string_view::npos)
      return error_answer(404, "not found");
    auto key = std::string(target.substr(0, slash));
    auto rest = target.substr(slash);
    std::lock_guard lock{mutex};
    if (rest.rfind("/repos?", 0) == 0 && r.method == "GET")
      return repos(key, r);
    auto hooks_at = rest.find("/webhooks");
    if (rest.rfind("/repos/", 0) != 0 || hooks_at == std::string_view::npos)
      return error_answer(404, "not found");
    auto repo = key + "/" + std::string(rest.substr(7, hooks_at - 7));
    auto tail = rest.substr(hooks_at + 9);
    auto& hooks = stored[repo];
    if (tail.empty() && r.method == "GET") {
      auto values = nlohmann::json::array();
      for (const auto& [id, body] : hooks)
        values.push_back(hook(id, body));
      return json_answer(200, {{"values", values},
                               {"isLastPage", true},
                               {"start", 0},
                               {"size", values.size()},
                               {"limit", 25}});
    }
    auto body = nlohmann::json::parse(r.body, nullptr, false);
    bool valid = r.header("Content-Type") == "application/json" && body.is_object()
                 && body.contains("url") && body["events"].is_array();
    if (tail.empty() && r.method == "POST") {
      if (!valid)
        return error_answer(400, "invalid webhook");
      auto id = next_id++;
      hooks[id] = r.body;
      return json_answer(201, hook(id, r.body));
    }
    if (tail.size() < 2 || tail[0] != '/'
        || tail.find_first_not_of("0123456789", 1) != std::string_view::npos || tail.size() > 12)
      return error_answer(404, "not found");
    auto id = std::stol(std::string(tail.substr(1)));
    if (hooks.count(id) == 0)
      return error_answer(404, "no such webhook");
    if (r.method == "PUT") {
      if (!valid)
        return error_answer(400, "invalid webhook");
      hooks[id] = r.body;
      return json_answer(200, hook(id, r.body));
    }
    if (r.method == "DELETE") {
      hooks.erase(id);
      return {204, ""};
    }
    return error_answer(405, "method not allowed");
  }
};

bitbucket_server_api::bitbucket_server_api(std::string token) : impl_(std::make_unique<impl>()) {
  impl_->authorization = "Bearer " + token;
  impl_->sink.set_handler(
    [state = impl_.get()](const recorded_request& r) { return state->answer(r); });
}

bitbucket_server_api::~bitbucket_server_api() = default;

std::string bitbucket_server_api::base_url() const {
  return impl_->sink.url("/rest");
}

std::vector<recorded_request> bitbucket_server_api::requests() const {
  return impl_->sink.requests();
}

std::map<std::string, std::map<long, std::string>> bitbucket_server_api::hooks() const {
  std::lock_guard lock{impl_->mutex};
  std::map<std::string, std::map<long, std::string>> out;
  for (const auto& [repo, hooks] : impl_->stored)
    if (!hooks.empty())
      out[repo] = hooks;
  return out;
}

long bitbucket_server_api::put_hook(const std::string& repository, const std::string& body) {
  std::lock_guard lock{impl_->mutex};
  auto id = impl_->next_id++;
  impl_->stored[repository][id] = body;
  return id;
}

void bitbucket_server_api::clear_hooks() {
  std::lock_guard lock{impl_->mutex};
  impl_->stored.clear();
}

void bitbucket_server_api::add_repository(const std::string& key, const std::string& slug) {
  std::lock_guard lock{impl_->mutex};
  impl_->projects[key].push_back(slug);
}

void bitbucket_server_api::set_commit_pull_requests(const std::string& repository,
                                                    const std::string& hash,
                                                    std::vector<std::string> states) {
  std::lock_guard lock{impl_->mutex};
  impl_->commit_prs[repository + "/" + hash] = std::move(states);
}

void bitbucket_server_api::set_down(bool down) {
  impl_->down = down;
}

} // namespace ganglion::test
