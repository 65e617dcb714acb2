#include "client/hooks_api.hpp"

#include <nlohmann/json.hpp>

namespace ganglion::gitlab::detail {

namespace {

using json = nlohmann::json;

std::int64_t id_of(const json& value) {
  if (value.is_object())
    if (auto id = value.find("id"); id != value.end() && id->is_number_integer())
      return id->get<std::int64_t>();
  return 0;
}

} // namespace

std::string api_root(std::string base_url) {
  if (!base_url.ends_with('/'))
    base_url += '/';
  auto path_at =
    base_url.find('/', base_url.find("://") == std::string::npos ? 0 : base_url.find("://") + 3);
  auto path = path_at == std::string::npos ? std::string{} : base_url.substr(path_at);
  if (!path.ends_with("api/v4/"))
    base_url += "api/v4/";
  return base_url;
}

hooks_api::hooks_api(http::hook_api_client client, std::string root, std::string token)
  : client_(std::move(client)), root_(std::move(root)), token_(std::move(token)) {}

std::string hooks_api::project_scope(const std::string& project) {
  return "projects/" + http::path_escape(project);
}

std::string hooks_api::group_scope(const std::string& group) {
  return "groups/" + http::path_escape(group);
}

http::client_response hooks_api::call(const std::string& method, const std::string& path,
                                      std::string body) const {
  return client_.call(
    method, root_ + path,
    {{"PRIVATE-TOKEN", token_}, {"Accept", "application/json"}, {"User-Agent", "go-gitlab"}},
    std::move(body));
}

std::vector<hook> hooks_api::list(const std::string& scope) const {
  auto reply = call("GET", scope + "/hooks", {});
  auto parsed = json::parse(reply.body, nullptr, false);
  if (!parsed.is_array())
    throw http::hook_error("GET " + root_ + scope + "/hooks answered no JSON array", false);
  std::vector<hook> out;
  for (const auto& h : parsed) {
    auto id = id_of(h);
    if (id == 0)
      continue;
    auto url = h.find("url");
    out.push_back({id, url != h.end() && url->is_string() ? url->get<std::string>() : ""});
  }
  return out;
}

std::int64_t hooks_api::add(const std::string& scope, const std::string& body) const {
  auto reply = call("POST", scope + "/hooks", body);
  auto id = id_of(json::parse(reply.body, nullptr, false));
  if (id == 0)
    throw http::hook_error("POST " + root_ + scope + "/hooks answered without the hook's id",
                           false);
  return id;
}

void hooks_api::remove(const std::string& scope, std::int64_t id) const {
  call("DELETE", scope + "/hooks/" + std::to_string(id), {});
}

} // namespace ganglion::gitlab::detail
