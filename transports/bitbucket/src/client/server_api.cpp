#include "client/server_api.hpp"

#include <nlohmann/json.hpp>

#include "ganglion/dsl/go/go_json.hpp"
#include "ganglion/http/hook_registrar.hpp"

namespace ganglion::bitbucket::detail {

namespace {

constexpr std::size_t max_answer_bytes = std::size_t{16} << 20;

/// json.Marshal of a []string: `null` when nil.
void append_events(std::string& out, const std::vector<std::string>& events) {
  if (events.empty())
    out += "null";
  else
    dsl::append_go_json_value(out, events);
}

} // namespace

std::string server_hook_body(const std::string& url, const std::vector<std::string>& events,
                             const std::string& secret) {
  std::string out;
  if (secret.empty()) {
    out = R"({"active":true,"events":)";
    append_events(out, events);
    out += R"(,"id":0,"name":"Argo Events","url":)";
    dsl::append_go_json_string(out, url);
    out += '}';
    return out;
  }
  out = R"({"id":0,"name":"Argo Events","events":)";
  append_events(out, events);
  out += R"(,"url":)";
  dsl::append_go_json_string(out, url);
  out += R"(,"active":true,"configuration":{"secret":)";
  dsl::append_go_json_string(out, secret);
  out += "}}";
  return out;
}

server_api::server_api(http::client& client, std::string base_url, std::string token,
                       std::optional<http::client_tls> tls, std::chrono::milliseconds timeout)
  : client_(client), base_url_(std::move(base_url)), token_(std::move(token)), tls_(std::move(tls)),
    timeout_(timeout) {}

std::string server_api::webhooks_url(const server_repository& repo) const {
  return base_url_ + "/api/1.0/projects/" + repo.project_key + "/repos/" + repo.repository_slug
         + "/webhooks";
}

server_result server_api::call(std::string method, std::string url, std::string body) const {
  http::client_request req;
  req.method = std::move(method);
  req.url = std::move(url);
  req.headers = {{"Content-Type", "application/json"},
                 {"Authorization", "Bearer " + token_},
                 {"X-Atlassian-Token", "no-check"},
                 {"X-Requested-With", "XMLHttpRequest"}};
  req.body = std::move(body);
  req.timeout = timeout_;
  req.tls = tls_;
  req.max_response_bytes = max_answer_bytes;
  return http::call_api(client_, std::move(req), "Bitbucket Server");
}

std::optional<std::vector<server_hook>> server_api::hooks(const server_repository& repo,
                                                          server_result& failed) const {
  auto r = call("GET", webhooks_url(repo), {});
  if (!r.error.empty()) {
    failed = std::move(r);
    return std::nullopt;
  }
  auto answer = nlohmann::json::parse(r.body, nullptr, false);
  auto values = answer.is_object() ? answer.find("values") : answer.end();
  if (!answer.is_object() || values == answer.end() || !values->is_array()) {
    failed = {r.status,
              "failed to convert the list of webhooks for repository " + repo.project_key + "/"
                + repo.repository_slug,
              {}};
    return std::nullopt;
  }
  std::vector<server_hook> out;
  for (const auto& item : *values) {
    if (!item.is_object())
      continue;
    server_hook h;
    h.id = item.value("id", 0L);
    h.url = item.value("url", std::string{});
    if (auto events = item.find("events"); events != item.end() && events->is_array())
      for (const auto& e : *events)
        if (e.is_string())
          h.events.push_back(e.get<std::string>());
    if (auto config = item.find("configuration"); config != item.end() && config->is_object())
      h.secret = config->value("secret", std::string{});
    out.push_back(std::move(h));
  }
  return out;
}

std::optional<long> server_api::create(const server_repository& repo, const std::string& body,
                                       server_result& failed) const {
  auto r = call("POST", webhooks_url(repo), body);
  if (!r.error.empty()) {
    failed = std::move(r);
    return std::nullopt;
  }
  auto answer = nlohmann::json::parse(r.body, nullptr, false);
  if (!answer.is_object() || !answer.contains("id") || !answer["id"].is_number_integer()) {
    failed = {r.status, "failed to convert API response to webhook struct", {}};
    return std::nullopt;
  }
  return answer["id"].get<long>();
}

server_result server_api::update(const server_repository& repo, long id,
                                 const std::string& body) const {
  return call("PUT", webhooks_url(repo) + "/" + std::to_string(id), body);
}

server_result server_api::remove(const server_repository& repo, long id) const {
  return call("DELETE", webhooks_url(repo) + "/" + std::to_string(id), {});
}

std::optional<std::vector<server_repository>> server_api::repositories(
  const std::string& project, server_result& failed) const {
  std::vector<server_repository> out;
  long start = 0;
  for (int page = 0; page < 1000; ++page) {
    auto r = call("GET",
                  base_url_ + "/api/1.0/projects/" + project
                    + "/repos?limit=500&start=" + std::to_string(start),
                  {});
    if (!r.error.empty()) {
      r.error = "unable to list repositories for project " + project + ": " + r.error;
      failed = std::move(r);
      return std::nullopt;
    }
    auto answer = nlohmann::json::parse(r.body, nullptr, false);
    auto values = answer.is_object() ? answer.find("values") : answer.end();
    if (!answer.is_object() || values == answer.end() || !values->is_array()) {
      failed = {r.status, "unable to decode repositories for project " + project, {}};
      return std::nullopt;
    }
    for (const auto& repo : *values) {
      if (!repo.is_object())
        continue;
      std::string key;
      if (auto p = repo.find("project"); p != repo.end() && p->is_object())
        key = p->value("key", std::string{});
      out.push_back({key, repo.value("slug", std::string{})});
    }
    if (answer.value("isLastPage", true))
      return out;
    start = answer.value("nextPageStart", start + 500);
  }
  failed = {0, "listing the repositories of project " + project + ": too many pages", {}};
  return std::nullopt;
}

} // namespace ganglion::bitbucket::detail
