#include "client/hooks_api.hpp"

#include <algorithm>

#include <nlohmann/json.hpp>

namespace ganglion::github::detail {

namespace {

using json = nlohmann::json;

std::string dump(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

} // namespace

std::string create_body(const hook_config& c) {
  json config = json::object();
  config["url"] = c.url;
  if (!c.content_type.empty())
    config["content_type"] = c.content_type;
  config["insecure_ssl"] = c.insecure ? "1" : "0";
  if (!c.secret.empty())
    config["secret"] = c.secret;
  std::string out = R"({"name":"web","config":)" + dump(config);
  if (!c.events.empty())
    out += R"(,"events":)" + dump(json(c.events));
  out += R"(,"active":)";
  out += c.active ? "true" : "false";
  out += "}\n";
  return out;
}

bool same_hook(const hook& existing, const std::string& url,
               const std::vector<std::string>& events) {
  if (existing.url != url)
    return false;
  auto star = [](const std::vector<std::string>& list) {
    return std::find(list.begin(), list.end(), "*") != list.end();
  };
  auto a = existing.events;
  auto b = events;
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  return a == b || (star(existing.events) && star(events));
}

hooks_api::hooks_api(http::hook_api_client client, std::string base_url,
                     std::function<std::string()> authorization)
  : client_(std::move(client)), base_url_(std::move(base_url)),
    authorization_(std::move(authorization)) {}

std::string hooks_api::repo_scope(const std::string& owner, const std::string& name) {
  return "repos/" + http::path_escape(owner) + "/" + http::path_escape(name);
}

std::string hooks_api::org_scope(const std::string& org) {
  return "orgs/" + http::path_escape(org);
}

http::client_response hooks_api::call(const std::string& method, const std::string& path,
                                      std::string body) const {
  std::string authorization;
  try {
    authorization = authorization_();
  } catch (const http::hook_error&) {
    throw;
  } catch (const std::exception& e) {
    throw http::hook_error(e.what(), false);
  }
  return client_.call(method, base_url_ + path,
                      {{"Authorization", authorization},
                       {"Accept", "application/vnd.github.v3+json"},
                       {"User-Agent", "go-github/v50.2.0"},
                       {"X-GitHub-Api-Version", "2022-11-28"}},
                      std::move(body));
}

std::vector<hook> hooks_api::list(const std::string& scope) const {
  auto reply = call("GET", scope + "/hooks", {});
  auto parsed = json::parse(reply.body, nullptr, false);
  if (!parsed.is_array())
    throw http::hook_error("GET " + base_url_ + scope + "/hooks answered no JSON array", false);
  std::vector<hook> out;
  for (const auto& h : parsed) {
    if (!h.is_object() || !h.contains("id") || !h["id"].is_number_integer())
      continue;
    hook one;
    one.id = h["id"].get<std::int64_t>();
    if (auto c = h.find("config"); c != h.end() && c->is_object())
      if (auto u = c->find("url"); u != c->end() && u->is_string())
        one.url = u->get<std::string>();
    if (auto e = h.find("events"); e != h.end() && e->is_array())
      for (const auto& name : *e)
        if (name.is_string())
          one.events.push_back(name.get<std::string>());
    out.push_back(std::move(one));
  }
  return out;
}

std::int64_t hooks_api::create(const std::string& scope, const hook_config& config) const {
  auto reply = call("POST", scope + "/hooks", create_body(config));
  auto parsed = json::parse(reply.body, nullptr, false);
  if (!parsed.is_object() || !parsed.contains("id") || !parsed["id"].is_number_integer())
    throw http::hook_error("POST " + base_url_ + scope + "/hooks answered without the hook's id",
                           false);
  return parsed["id"].get<std::int64_t>();
}

void hooks_api::remove(const std::string& scope, std::int64_t id) const {
  call("DELETE", scope + "/hooks/" + std::to_string(id), {});
}

} // namespace ganglion::github::detail
