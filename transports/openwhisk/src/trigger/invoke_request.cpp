#include "trigger/invoke_request.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

#include "ganglion/dsl/go/codec.hpp"

namespace ganglion::openwhisk::detail {

namespace {

/// The longest excerpt of an error response kept in an outcome.
constexpr std::size_t max_error_body = 512;

std::string string_field(const nlohmann::json& object, const char* key) {
  auto i = object.find(key);
  if (i == object.end() || i->is_null())
    return {};
  if (!i->is_string())
    throw std::runtime_error(fmt::format("openWhisk.{} must be a string, not {}", key, i->dump()));
  return i->get<std::string>();
}

bool has_scheme(const std::string& host) {
  auto colon = host.find("://");
  if (colon == std::string::npos || colon == 0 || colon + 3 >= host.size())
    return false;
  if (!std::isalpha(static_cast<unsigned char>(host[0])))
    return false;
  return std::all_of(host.begin(), host.begin() + static_cast<std::ptrdiff_t>(colon), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '+' || c == '-' || c == '.';
  });
}

} // namespace

action_address read_address(const std::string& openwhisk_json) {
  auto spec = nlohmann::json::parse(openwhisk_json, nullptr, false);
  if (!spec.is_object())
    throw std::runtime_error("the openWhisk trigger spec is not a JSON object");
  action_address out;
  out.host = string_field(spec, "host");
  out.version = string_field(spec, "version");
  out.namespace_ = string_field(spec, "namespace");
  out.action_name = string_field(spec, "actionName");
  if (out.version.empty())
    out.version = "v1";
  if (out.namespace_.empty())
    out.namespace_ = "_";
  return out;
}

std::string escape_path(const std::string& path) {
  static constexpr std::string_view kept = "-_.~$&+,/:;=@";
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || kept.find(static_cast<char>(c)) != std::string_view::npos)
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

std::string invoke_url(const action_address& a) {
  if (a.host.empty())
    throw std::runtime_error("host URL is not specified");
  if (a.action_name.empty())
    throw std::runtime_error("action name is not specified");
  auto base = has_scheme(a.host) ? a.host : "https://" + a.host;
  return fmt::format("{}/api/{}/namespaces/{}/actions/{}?blocking=true&result=true", base,
                     a.version, a.namespace_, escape_path(a.action_name));
}

http::client_request invoke_request(const action_address& address,
                                    const std::optional<std::string>& auth_token,
                                    std::string body) {
  http::client_request r;
  r.method = "POST";
  r.url = invoke_url(address);
  r.headers.emplace_back("Content-Type", "application/json");
  if (auth_token)
    r.headers.emplace_back("Authorization", "Basic " + dsl::base64_encode(*auth_token));
  r.headers.emplace_back("User-Agent", "OpenWhisk-Go-Client linux amd64");
  r.body = std::move(body);
  r.max_response_bytes = std::size_t{4} << 20;
  return r;
}

core::trigger_outcome judge(const http::client_response& response, const std::string& action,
                            const std::vector<std::int32_t>& allow) {
  core::trigger_outcome outcome;
  if (response.status == 0) {
    outcome.error = fmt::format("failed to invoke action {}, {}", action,
                                response.error.empty() ? "no HTTP response" : response.error);
    return outcome;
  }
  outcome.detail = fmt::format("HTTP {}", response.status);
  if (response.status < 200 || response.status > 299) {
    outcome.error = fmt::format("failed to invoke action {}, HTTP {}: {}", action, response.status,
                                response.body.substr(0, max_error_body));
    return outcome;
  }
  if (!allow.empty() && std::find(allow.begin(), allow.end(), response.status) == allow.end()) {
    outcome.error = fmt::format("HTTP {} is not in policy.status.allow [{}]", response.status,
                                fmt::join(allow, ", "));
    return outcome;
  }
  outcome.ok = true;
  return outcome;
}

} // namespace ganglion::openwhisk::detail
