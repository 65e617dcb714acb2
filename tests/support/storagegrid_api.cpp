#include "storagegrid_api.hpp"

#include <atomic>
#include <mutex>

#include <nlohmann/json.hpp>

#include "s3/sigv4.hpp"

namespace ganglion::test {

namespace {

constexpr std::string_view prefix = "/api/v3";
constexpr std::string_view containers = "/org/containers/";

nlohmann::json envelope(const char* status) {
  return {{"responseTime", "2026-12-06T00:00:00.000Z"},
          {"status", status},
          {"apiVersion", "3.4"},
          {"deprecated", false}};
}

sink_answer json_answer(int status, const nlohmann::json& body) {
  sink_answer out;
  out.status = status;
  out.body = body.dump();
  out.content_type = "application/json";
  return out;
}

sink_answer data_answer(int status, nlohmann::json data) {
  auto body = envelope("success");
  body["data"] = std::move(data);
  return json_answer(status, body);
}

sink_answer error_answer(int status, const std::string& text, const std::string& key) {
  auto body = envelope("error");
  body["code"] = status;
  body["message"] = {
    {"text", text}, {"key", key}, {"context", nullptr}, {"developerMessage", nullptr}};
  return json_answer(status, body);
}

nlohmann::json describe(const storagegrid_endpoint& e) {
  return {{"id", e.id},           {"displayName", e.display_name}, {"endpointURI", e.uri},
          {"endpointURN", e.urn}, {"authType", e.auth_type},       {"insecureTLS", e.insecure_tls},
          {"caCert", ""}};
}

} // namespace

struct storagegrid_api::impl {
  std::string authorization;
  mutable std::mutex mutex;
  std::vector<storagegrid_endpoint> stored;
  std::map<std::string, std::optional<std::string>> buckets;
  int next = 1;
  std::atomic<bool> down{false};
  http_sink sink{200}; ///< last: stopped before the state its handler reads goes

  sink_answer answer(const recorded_request& r) {
    if (down)
      return error_answer(503, "Service Unavailable", "unavailable");
    if (r.header("Authorization") != authorization)
      return error_answer(401, "Unauthorized", "unauthorized");
    std::string_view path = r.target;
    if (path.substr(0, prefix.size()) != prefix)
      return error_answer(404, "Not Found", "notFound");
    path.remove_prefix(prefix.size());
    bool has_body = r.method == "POST" || r.method == "PUT";
    if (has_body && r.header("Content-Type") != "application/json")
      return error_answer(415, "Unsupported Media Type", "unsupportedMediaType");
    auto body = has_body ? nlohmann::json::parse(r.body, nullptr, false) : nlohmann::json{};
    if (has_body && !body.is_object())
      return error_answer(400, "The request body is not a JSON object", "invalidBody");
    std::lock_guard lock{mutex};
    if (path == "/org/endpoints" && r.method == "GET") {
      auto data = nlohmann::json::array();
      for (const auto& e : stored)
        data.push_back(describe(e));
      return data_answer(200, data);
    }
    if (path == "/org/endpoints" && r.method == "POST")
      return create(body);
    if (path.substr(0, containers.size()) == containers && r.method == "PUT") {
      auto rest = path.substr(containers.size());
      auto slash = rest.find('/');
      if (slash == std::string_view::npos || rest.substr(slash) != "/notification")
        return error_answer(404, "Not Found", "notFound");
      auto bucket = buckets.find(s3::percent_decode(std::string(rest.substr(0, slash))));
      if (bucket == buckets.end())
        return error_answer(404, "The bucket does not exist", "bucketNotFound");
      auto xml = body.find("notification");
      if (xml == body.end() || !xml->is_string())
        return error_answer(400, "notification is required", "invalidBody");
      bucket->second = xml->get<std::string>();
      return data_answer(200, {{"notification", *bucket->second}});
    }
    return error_answer(404, "Not Found", "notFound");
  }

  sink_answer create(const nlohmann::json& body) {
    auto text = [&](const char* key) -> std::optional<std::string> {
      auto at = body.find(key);
      return at != body.end() && at->is_string() ? std::optional{at->get<std::string>()}
                                                 : std::nullopt;
    };
    auto name = text("displayName");
    auto uri = text("endpointURI");
    auto urn = text("endpointURN");
    auto auth = text("authType");
    auto insecure = body.find("insecureTLS");
    if (!name || !uri || !urn || !auth || insecure == body.end() || !insecure->is_boolean())
      return error_answer(400,
                          "displayName, endpointURI, endpointURN, authType and insecureTLS "
                          "are required",
                          "invalidBody");
    for (const auto& e : stored)
      if (e.urn == *urn)
        return error_answer(400, "An endpoint with this URN already exists", "duplicateURN");
    stored.push_back(
      {"ep-" + std::to_string(next++), *name, *uri, *urn, *auth, insecure->get<bool>()});
    return data_answer(201, describe(stored.back()));
  }
};

storagegrid_api::storagegrid_api(std::string token, std::vector<std::string> buckets)
  : impl_(std::make_unique<impl>()) {
  impl_->authorization = "Bearer " + token;
  for (auto& b : buckets)
    impl_->buckets[std::move(b)] = std::nullopt;
  impl_->sink.set_handler(
    [state = impl_.get()](const recorded_request& r) { return state->answer(r); });
}

storagegrid_api::~storagegrid_api() = default;

std::string storagegrid_api::api_url() const {
  return impl_->sink.url(std::string{prefix});
}

std::vector<recorded_request> storagegrid_api::requests() const {
  return impl_->sink.requests();
}

std::vector<storagegrid_endpoint> storagegrid_api::endpoints() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->stored;
}

void storagegrid_api::put_endpoint(const std::string& uri, const std::string& urn) {
  std::lock_guard lock{impl_->mutex};
  impl_->stored.push_back(
    {"ep-" + std::to_string(impl_->next++), "earlier", uri, urn, "anonymous", false});
}

std::optional<std::string> storagegrid_api::notification(const std::string& bucket) const {
  std::lock_guard lock{impl_->mutex};
  auto at = impl_->buckets.find(bucket);
  return at == impl_->buckets.end() ? std::nullopt : at->second;
}

void storagegrid_api::set_down(bool down) {
  impl_->down = down;
}

} // namespace ganglion::test
