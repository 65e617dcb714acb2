#include "client/endpoints_api.hpp"

#include <nlohmann/json.hpp>

namespace ganglion::stripe::detail {

namespace {

constexpr std::size_t max_answer_bytes = std::size_t{16} << 20;
constexpr const char* stripe_version = "2020-03-02"; // stripe-go v70's APIVersion

std::optional<endpoint> read_endpoint(const nlohmann::json& j) {
  if (!j.is_object())
    return std::nullopt;
  auto text = [&](const char* key) {
    auto at = j.find(key);
    return at != j.end() && at->is_string() ? at->get<std::string>() : std::string{};
  };
  endpoint out{text("id"), text("url"), {}, text("secret")};
  if (out.id.empty())
    return std::nullopt;
  if (auto events = j.find("enabled_events"); events != j.end() && events->is_array())
    for (const auto& e : *events)
      if (e.is_string())
        out.enabled_events.push_back(e.get<std::string>());
  return out;
}

std::optional<endpoint> endpoint_answer(http::api_answer r, http::api_answer& failed,
                                        const char* what) {
  if (!r.error.empty()) {
    failed = std::move(r);
    return std::nullopt;
  }
  auto e = read_endpoint(nlohmann::json::parse(r.body, nullptr, false));
  if (!e)
    failed = {r.status, std::string{what} + ": Stripe's answer is not a webhook endpoint", {}};
  return e;
}

} // namespace

std::string endpoint_form(const std::vector<std::string>& enabled_events, const std::string& url) {
  std::string out;
  for (std::size_t i = 0; i < enabled_events.size(); ++i) {
    if (!out.empty())
      out += '&';
    out += "enabled_events[" + std::to_string(i) + "]=" + http::query_escape(enabled_events[i]);
  }
  if (!url.empty()) {
    if (!out.empty())
      out += '&';
    out += "url=" + http::query_escape(url);
  }
  return out;
}

endpoints_api::endpoints_api(http::client& client, std::string api_url, std::string key,
                             std::chrono::milliseconds timeout)
  : client_(client), api_url_(std::move(api_url)), key_(std::move(key)), timeout_(timeout) {}

http::api_answer endpoints_api::call(std::string method, std::string path, std::string form) const {
  http::client_request req;
  req.method = std::move(method);
  req.url = api_url_ + path;
  req.headers = {{"Authorization", "Bearer " + key_},
                 {"Content-Type", "application/x-www-form-urlencoded"},
                 {"Stripe-Version", stripe_version},
                 {"User-Agent", "Stripe/v1 GoBindings/70.15.0"}};
  req.body = std::move(form);
  req.timeout = timeout_;
  req.max_response_bytes = max_answer_bytes;
  return http::call_api(client_, std::move(req), "Stripe");
}

std::optional<std::vector<endpoint>> endpoints_api::list(http::api_answer& failed) const {
  std::vector<endpoint> out;
  std::string after;
  while (true) {
    std::string path = "/v1/webhook_endpoints?limit=100";
    if (!after.empty())
      path += "&starting_after=" + http::query_escape(after);
    auto r = call("GET", std::move(path), {});
    if (!r.error.empty()) {
      failed = std::move(r);
      return std::nullopt;
    }
    auto page = nlohmann::json::parse(r.body, nullptr, false);
    auto data = page.is_object() ? page.find("data") : page.end();
    if (!page.is_object() || data == page.end() || !data->is_array()) {
      failed = {r.status, "listing the webhook endpoints: Stripe's answer is not a list", {}};
      return std::nullopt;
    }
    for (const auto& e : *data)
      if (auto read = read_endpoint(e))
        out.push_back(std::move(*read));
    auto more = page.find("has_more");
    if (more == page.end() || !more->is_boolean() || !more->get<bool>() || data->empty())
      return out;
    after = out.back().id;
  }
}

std::optional<endpoint> endpoints_api::create(const std::string& url,
                                              const std::vector<std::string>& enabled_events,
                                              http::api_answer& failed) const {
  return endpoint_answer(call("POST", "/v1/webhook_endpoints", endpoint_form(enabled_events, url)),
                         failed, "creating the webhook endpoint");
}

std::optional<endpoint> endpoints_api::update(const std::string& id,
                                              const std::vector<std::string>& enabled_events,
                                              http::api_answer& failed) const {
  return endpoint_answer(call("POST", "/v1/webhook_endpoints/" + http::path_escape(id),
                              endpoint_form(enabled_events, {})),
                         failed, "updating the webhook endpoint");
}

} // namespace ganglion::stripe::detail
