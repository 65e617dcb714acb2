#include "client/webhooks_api.hpp"

#include <nlohmann/json.hpp>

#include "ganglion/dsl/go/go_json.hpp"
#include "ganglion/http/hook_registrar.hpp"

namespace ganglion::gerrit::detail {

namespace {

constexpr std::size_t max_answer_bytes = std::size_t{4} << 20;

std::string strip_guard(std::string body) {
  static constexpr std::string_view guard = ")]}'";
  if (body.rfind(guard, 0) == 0) {
    auto newline = body.find('\n');
    body.erase(0, newline == std::string::npos ? body.size() : newline + 1);
  }
  return body;
}

} // namespace

std::string hook_body(const hook_config& config) {
  std::string out = "{";
  auto field = [&](std::string_view name) {
    if (out.size() > 1)
      out += ',';
    dsl::append_go_json_string(out, name);
    out += ':';
  };
  if (!config.url.empty()) {
    field("url");
    dsl::append_go_json_string(out, config.url);
  }
  if (!config.events.empty()) {
    field("events");
    dsl::append_go_json_value(out, config.events);
  }
  if (config.max_tries != 0) {
    field("maxTries");
    out += std::to_string(config.max_tries);
  }
  if (config.ssl_verify) {
    field("sslVerify");
    out += "true";
  }
  out += "}\n";
  return out;
}

std::string remotes_url(std::string_view base_url, std::string_view project,
                        std::optional<std::string_view> remote) {
  std::string out(base_url);
  if (out.empty() || out.back() != '/')
    out += '/';
  out += "a/config/server/webhooks~projects/";
  out += http::query_escape(project);
  out += "/remotes/";
  if (remote) {
    out += http::query_escape(*remote);
    out += '/';
  }
  return out;
}

webhooks_api::webhooks_api(http::client& client, std::string base_url, std::string user,
                           std::string password, std::chrono::milliseconds timeout)
  : client_(client), base_url_(std::move(base_url)),
    credentials_(std::move(user), std::move(password)), timeout_(timeout) {}

api_result webhooks_api::call(std::string method, std::string url, std::string body) const {
  http::client_request req;
  req.method = std::move(method);
  req.url = std::move(url);
  req.headers = {{"Accept", "application/json"}};
  if (!body.empty())
    req.headers.emplace_back("Content-Type", "application/json");
  req.body = std::move(body);
  req.timeout = timeout_;
  req.basic_auth = credentials_;
  req.max_response_bytes = max_answer_bytes;
  auto out = http::call_api(client_, std::move(req), "Gerrit");
  out.body = strip_guard(std::move(out.body));
  return out;
}

std::optional<std::string> webhooks_api::hook_url(const std::string& project,
                                                  const std::string& remote,
                                                  api_result& failed) const {
  auto r = call("GET", remotes_url(base_url_, project), {});
  if (!r.error.empty()) {
    failed = std::move(r);
    return std::nullopt;
  }
  auto hooks = nlohmann::json::parse(r.body, nullptr, false);
  if (!hooks.is_object()) {
    failed = {
      r.status, "listing the hooks of " + project + ": the answer is not a JSON object", {}};
    return std::nullopt;
  }
  auto hook = hooks.find(remote);
  if (hook == hooks.end() || !hook->is_object())
    return std::string{};
  auto url = hook->find("url");
  return url != hook->end() && url->is_string() ? url->get<std::string>() : std::string{};
}

api_result webhooks_api::create(const std::string& project, const std::string& remote,
                                const hook_config& config) const {
  return call("PUT", remotes_url(base_url_, project, remote), hook_body(config));
}

api_result webhooks_api::remove(const std::string& project, const std::string& remote) const {
  return call("DELETE", remotes_url(base_url_, project, remote), {});
}

} // namespace ganglion::gerrit::detail
