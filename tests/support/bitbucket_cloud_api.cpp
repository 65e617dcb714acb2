#include "bitbucket_cloud_api.hpp"

#include <atomic>
#include <mutex>

#include <nlohmann/json.hpp>

namespace ganglion::test {

namespace {

constexpr std::string_view prefix = "/2.0/repositories/";

} // namespace

struct bitbucket_cloud_api::impl {
  std::string authorization;
  mutable std::mutex mutex;
  std::map<std::string, std::map<std::string, std::string>> stored; ///< repo → uuid → body
  int next_id = 1;
  std::atomic<bool> down{false};
  http_sink sink{200}; ///< last: stopped before the state its handler reads goes

  std::string add(const std::string& repo, std::string body) {
    auto uuid = "{hook-" + std::to_string(next_id++) + "}";
    stored[repo][uuid] = std::move(body);
    return uuid;
  }

  nlohmann::json hook(const std::string& uuid, const std::string& body) const {
    auto out = nlohmann::json::parse(body);
    out["uuid"] = uuid;
    return out;
  }

  sink_answer answer(const recorded_request& r) {
    if (down)
      return {503, "service unavailable"};
    if (r.header("Authorization") != authorization)
      return {401, R"({"type":"error","error":{"message":"Unauthorized"}})", "application/json"};
    std::string_view target = r.target;
    if (target.substr(0, prefix.size()) != prefix)
      return {404, "Not found"};
    target.remove_prefix(prefix.size());
    auto first = target.find('/');
    auto second = first == std::string_view::npos ? first : target.find('/', first + 1);
    if (second == std::string_view::npos || target.substr(second, 6) != "/hooks")
      return {404, "Not found"};
    auto repo = std::string(target.substr(0, second));
    auto rest = target.substr(second + 6);
    std::lock_guard lock{mutex};
    if (rest == "/" && r.method == "GET") {
      auto values = nlohmann::json::array();
      for (const auto& [uuid, body] : stored[repo])
        values.push_back(hook(uuid, body));
      nlohmann::json page{
        {"values", values}, {"pagelen", 10}, {"size", values.size()}, {"page", 1}};
      return {200, page.dump(), "application/json"};
    }
    if (rest.empty() && r.method == "POST") {
      auto body = nlohmann::json::parse(r.body, nullptr, false);
      if (r.header("Content-Type") != "application/json" || !body.is_object()
          || !body.contains("url") || !body["events"].is_array())
        return {400, R"({"type":"error","error":{"message":"Bad request"}})", "application/json"};
      auto uuid = add(repo, r.body);
      return {201, hook(uuid, r.body).dump(), "application/json"};
    }
    if (rest.size() > 7 && rest.substr(0, 4) == "/%7B" && rest.substr(rest.size() - 3) == "%7D"
        && r.method == "DELETE") {
      auto uuid = "{" + std::string(rest.substr(4, rest.size() - 7)) + "}";
      return stored[repo].erase(uuid) == 1 ? sink_answer{204, ""} : sink_answer{404, "Not found"};
    }
    return {404, "Not found"};
  }
};

bitbucket_cloud_api::bitbucket_cloud_api(std::string authorization)
  : impl_(std::make_unique<impl>()) {
  impl_->authorization = std::move(authorization);
  impl_->sink.set_handler(
    [state = impl_.get()](const recorded_request& r) { return state->answer(r); });
}

bitbucket_cloud_api::~bitbucket_cloud_api() = default;

std::string bitbucket_cloud_api::api_url() const {
  return impl_->sink.url("/2.0");
}

std::vector<recorded_request> bitbucket_cloud_api::requests() const {
  return impl_->sink.requests();
}

std::map<std::string, std::map<std::string, std::string>> bitbucket_cloud_api::hooks() const {
  std::lock_guard lock{impl_->mutex};
  std::map<std::string, std::map<std::string, std::string>> out;
  for (const auto& [repo, hooks] : impl_->stored)
    if (!hooks.empty())
      out[repo] = hooks;
  return out;
}

std::string bitbucket_cloud_api::put_hook(const std::string& repository, const std::string& url) {
  std::lock_guard lock{impl_->mutex};
  nlohmann::json body{{"url", url}, {"events", {"repo:push"}}};
  return impl_->add(repository, body.dump());
}

void bitbucket_cloud_api::set_down(bool down) {
  impl_->down = down;
}

} // namespace ganglion::test
