#include "client/cloud_api.hpp"

#include <nlohmann/json.hpp>

#include "ganglion/dsl/go/go_json.hpp"
#include "ganglion/http/hook_registrar.hpp"

namespace ganglion::bitbucket::detail {

namespace {

constexpr std::size_t max_answer_bytes = std::size_t{4} << 20;

} // namespace

std::string hook_body(const std::string& url, const std::vector<std::string>& events) {
  std::string out = R"({"active":true,"description":)";
  dsl::append_go_json_string(out, hook_description);
  out += R"(,"events":)";
  if (events.empty())
    out += "null";
  else
    dsl::append_go_json_value(out, events);
  if (!url.empty()) {
    out += R"(,"url":)";
    dsl::append_go_json_string(out, url);
  }
  out += '}';
  return out;
}

cloud_api::cloud_api(http::client& client, std::string api_url, cloud_credentials credentials,
                     std::chrono::milliseconds timeout)
  : client_(client), api_url_(std::move(api_url)), credentials_(std::move(credentials)),
    timeout_(timeout) {
  while (!api_url_.empty() && api_url_.back() == '/')
    api_url_.pop_back();
}

std::string cloud_api::hooks_url(const repository& repo) const {
  return api_url_ + "/repositories/" + repo.owner + "/" + repo.repository_slug + "/hooks";
}

api_result cloud_api::call(std::string method, std::string url, std::string body) const {
  http::client_request req;
  req.method = std::move(method);
  req.url = std::move(url);
  if (!body.empty())
    req.headers.emplace_back("Content-Type", "application/json");
  if (credentials_.basic)
    req.basic_auth = credentials_.basic;
  else
    req.headers.emplace_back("Authorization", "Bearer " + credentials_.bearer_token);
  req.body = std::move(body);
  req.timeout = timeout_;
  req.max_response_bytes = max_answer_bytes;
  return http::call_api(client_, std::move(req), "Bitbucket");
}

std::optional<std::vector<cloud_hook>> cloud_api::hooks(const repository& repo,
                                                        api_result& failed) const {
  auto r = call("GET", hooks_url(repo) + "/", {});
  if (!r.error.empty()) {
    failed = std::move(r);
    return std::nullopt;
  }
  auto answer = nlohmann::json::parse(r.body, nullptr, false);
  auto values = answer.is_object() ? answer.find("values") : answer.end();
  if (!answer.is_object() || values == answer.end() || !values->is_array()) {
    failed = {r.status, "failed to parse the list webhooks response", {}};
    return std::nullopt;
  }
  std::vector<cloud_hook> out;
  for (const auto& hook : *values) {
    if (!hook.is_object())
      continue;
    cloud_hook h;
    if (auto uuid = hook.find("uuid"); uuid != hook.end() && uuid->is_string())
      h.uuid = uuid->get<std::string>();
    if (auto url = hook.find("url"); url != hook.end() && url->is_string())
      h.url = url->get<std::string>();
    out.push_back(std::move(h));
  }
  return out;
}

std::optional<std::string> cloud_api::create(const repository& repo, const std::string& url,
                                             const std::vector<std::string>& events,
                                             api_result& failed) const {
  auto r = call("POST", hooks_url(repo), hook_body(url, events));
  if (!r.error.empty()) {
    failed = std::move(r);
    return std::nullopt;
  }
  auto answer = nlohmann::json::parse(r.body, nullptr, false);
  auto uuid = answer.is_object() ? answer.find("uuid") : answer.end();
  if (!answer.is_object() || uuid == answer.end() || !uuid->is_string()) {
    failed = {r.status, "the created webhook has no uuid", {}};
    return std::nullopt;
  }
  return uuid->get<std::string>();
}

api_result cloud_api::remove(const repository& repo, const std::string& uuid) const {
  auto r = call("DELETE", hooks_url(repo) + "/" + http::path_escape(uuid), {});
  if (r.status == 404)
    r.error.clear();
  return r;
}

} // namespace ganglion::bitbucket::detail
