#include "client/api.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ganglion/dsl/go/jwt.hpp"
#include "ganglion/http/hook_registrar.hpp"

namespace ganglion::gcp::detail {

namespace {

/// Google's error answer: `{"error":{"code":…,"message":…,"status":…}}`.
api_error answer_error(const std::string& what, const http::client_response& r) {
  auto j = nlohmann::json::parse(r.body, nullptr, false);
  std::string message;
  std::string code;
  if (j.is_object() && j.contains("error") && j["error"].is_object()) {
    const auto& e = j["error"];
    if (e.contains("message") && e["message"].is_string())
      message = e["message"].get<std::string>();
    if (e.contains("status") && e["status"].is_string())
      code = e["status"].get<std::string>();
  }
  if (message.empty())
    message = r.body.substr(0, 200);
  return api_error(
    fmt::format("{}: {} {}{}", what, r.status, code.empty() ? "" : code + ": ", message), r.status,
    code);
}

bool is_timeout(const std::string& error) {
  return error.find("timed out") != std::string::npos || error.find("Timeout") != std::string::npos;
}

} // namespace

std::string api_root(const std::string& api_url, const std::string& emulator_host) {
  auto root = emulator_host.empty() ? api_url : "http://" + emulator_host;
  while (root.ends_with('/'))
    root.pop_back();
  return root;
}

api::api(std::shared_ptr<http::client> requests, api_settings settings,
         std::function<bool()> stopping)
  : requests_(std::move(requests)), settings_(std::move(settings)), stopping_(std::move(stopping)) {
}

std::optional<http::client_response> api::send(http::client_request request) {
  return http::send_and_wait(*requests_, std::move(request), stopping_);
}

std::optional<std::string> api::bearer() {
  auto& cache = *settings_.tokens;
  std::lock_guard guard{cache.mutex};
  auto now = std::chrono::steady_clock::now();
  if (cache.token && cache.token->expires - std::chrono::seconds(60) > now)
    return cache.token->value;
  const auto& account = *settings_.account;
  http::client_request request;
  request.url = account.token_uri;
  request.headers = {{"Content-Type", "application/x-www-form-urlencoded"}};
  request.timeout = settings_.call_timeout;
  request.max_response_bytes = 1 << 20;
  try {
    request.body = token_request_body(token_assertion(account, std::chrono::system_clock::now()));
  } catch (const dsl::jwt_error& e) {
    throw api_error(fmt::format("credentialSecret: private_key: {}", e.what()), 0, {});
  }
  auto r = send(std::move(request));
  if (!r)
    return std::nullopt;
  auto what = "token request to " + account.token_uri;
  if (r->status == 0)
    throw api_error(fmt::format("{}: {}", what, r->error), 0, {});
  if (r->status / 100 != 2) {
    auto j = nlohmann::json::parse(r->body, nullptr, false);
    std::string why = r->body.substr(0, 200);
    if (j.is_object() && j.contains("error_description") && j["error_description"].is_string())
      why = j["error_description"].get<std::string>();
    throw api_error(fmt::format("{}: {} {}", what, r->status, why), r->status, {});
  }
  try {
    cache.token = parse_token_response(r->body, now);
  } catch (const std::invalid_argument& e) {
    throw api_error(fmt::format("{}: {}", what, e.what()), r->status, {});
  }
  return cache.token->value;
}

std::optional<std::string> api::call(const std::string& method, const std::string& path,
                                     const std::string& body,
                                     std::optional<std::chrono::milliseconds> timeout,
                                     std::size_t max_response_bytes, bool* timed_out) {
  http::client_request request;
  request.method = method;
  request.url = settings_.base_url + path;
  request.timeout = timeout.value_or(settings_.call_timeout);
  request.max_response_bytes = max_response_bytes;
  if (!body.empty()) {
    request.body = body;
    request.headers.emplace_back("Content-Type", "application/json");
  }
  if (settings_.account) {
    auto token = bearer();
    if (!token)
      return std::nullopt;
    request.headers.emplace_back("Authorization", "Bearer " + *token);
  }
  auto what = method + " " + path;
  auto r = send(std::move(request));
  if (!r)
    return std::nullopt;
  if (r->status == 0) {
    if (timed_out && is_timeout(r->error)) {
      *timed_out = true;
      return std::string{};
    }
    throw api_error(fmt::format("{}: {}", what, r->error), 0, {});
  }
  if (r->status / 100 != 2) {
    if (r->status == 401) {
      std::lock_guard guard{settings_.tokens->mutex};
      settings_.tokens->token.reset(); // fetched again on the next call
    }
    throw answer_error(what, *r);
  }
  return std::move(r->body);
}

} // namespace ganglion::gcp::detail
