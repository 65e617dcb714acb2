#include "client/api_call.hpp"

#include <algorithm>
#include <cctype>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ganglion/http/hook_registrar.hpp"

namespace ganglion::aws {

namespace {

/// The headers an error or a Lambda reply is read from.
const std::vector<std::string> reply_headers{"x-amzn-ErrorType", "x-amzn-query-error",
                                             "X-Amz-Function-Error", "X-Amz-Executed-Version"};

/// `com.amazonaws.sqs#QueueDoesNotExist` → `QueueDoesNotExist`; `A;Sender` → `A`;
/// `X:http://…` → `X`.
std::string short_code(std::string code) {
  if (auto hash = code.rfind('#'); hash != std::string::npos)
    code = code.substr(hash + 1);
  if (auto end = code.find_first_of(";:"); end != std::string::npos)
    code = code.substr(0, end);
  return code;
}

} // namespace

std::string header_value(const http::client_response& r, std::string_view name) {
  for (const auto& [key, value] : r.headers)
    if (key.size() == name.size()
        && std::equal(key.begin(), key.end(), name.begin(), [](char a, char b) {
             return std::tolower(static_cast<unsigned char>(a))
                 == std::tolower(static_cast<unsigned char>(b));
           }))
      return value;
  return {};
}

api_endpoint make_endpoint(std::string_view configured, std::string_view service,
                           std::string_view region) {
  api_endpoint out{std::string(configured), std::string(region), std::string(service)};
  if (out.url.empty())
    out.url = fmt::format("https://{}.{}.amazonaws.com", service, region);
  else if (out.url.find("://") == std::string::npos)
    out.url = "https://" + out.url;
  while (!out.url.empty() && out.url.back() == '/')
    out.url.pop_back();
  return out;
}

std::string uri_encode(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

http::client_request signed_request(const api_endpoint& api, const credentials& keys,
                                    std::string method, const std::string& path,
                                    std::string body,
                                    std::vector<std::pair<std::string, std::string>> headers,
                                    std::chrono::milliseconds timeout) {
  http::client_request r;
  r.method = std::move(method);
  r.url = api.url + path;
  r.body = std::move(body);
  r.headers = std::move(headers);
  if (!keys.session_token.empty())
    r.headers.emplace_back("X-Amz-Security-Token", keys.session_token);
  r.timeout = timeout;
  r.aws_sigv4 = "aws:amz:" + api.region + ":" + api.service;
  r.aws_credentials = {keys.access_key, keys.secret_key};
  r.response_headers = reply_headers;
  r.max_response_bytes = std::size_t{16} << 20;
  return r;
}

http::client_request query_request(const api_endpoint& api, const credentials& keys,
                                   std::string_view action, std::string_view version,
                                   std::vector<std::pair<std::string, std::string>> parameters,
                                   std::chrono::milliseconds timeout) {
  parameters.emplace_back("Action", std::string(action));
  parameters.emplace_back("Version", std::string(version));
  std::sort(parameters.begin(), parameters.end());
  std::string body;
  for (const auto& [name, value] : parameters) {
    if (!body.empty())
      body += '&';
    body += http::query_escape(name) + "=" + http::query_escape(value);
  }
  return signed_request(api, keys, "POST", "/", std::move(body),
                        {{"Content-Type", "application/x-www-form-urlencoded; charset=utf-8"}},
                        timeout);
}

api_error read_error(const http::client_response& r) {
  if (r.status == 0)
    return {{}, r.error.empty() ? "no HTTP response" : r.error};
  api_error out;
  out.code = short_code(header_value(r, "x-amzn-ErrorType"));
  if (out.code.empty())
    out.code = short_code(header_value(r, "x-amzn-query-error"));
  auto body = nlohmann::json::parse(r.body, nullptr, false);
  if (body.is_object()) {
    for (const char* key : {"__type", "code", "Code"})
      if (out.code.empty() && body.contains(key) && body[key].is_string())
        out.code = short_code(body[key].get<std::string>());
    for (const char* key : {"message", "Message"})
      if (out.message.empty() && body.contains(key) && body[key].is_string())
        out.message = body[key].get<std::string>();
  } else if (auto code = xml_text(r.body, "Code"); !code.empty()) {
    if (out.code.empty())
      out.code = code;
    out.message = xml_text(r.body, "Message");
  } else {
    out.message = r.body.substr(0, 512);
  }
  return out;
}

std::string xml_text(std::string_view xml, std::string_view name) {
  auto open = "<" + std::string(name) + ">";
  auto start = xml.find(open);
  if (start == std::string_view::npos)
    return {};
  start += open.size();
  auto end = xml.find("</" + std::string(name) + ">", start);
  if (end == std::string_view::npos)
    return {};
  static constexpr std::pair<std::string_view, char> entities[] = {
    {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
  std::string out;
  for (auto text = xml.substr(start, end - start); !text.empty();) {
    auto found = std::find_if(std::begin(entities), std::end(entities), [&](const auto& e) {
      return text.substr(0, e.first.size()) == e.first;
    });
    if (found != std::end(entities)) {
      out += found->second;
      text.remove_prefix(found->first.size());
    } else {
      out += text.front();
      text.remove_prefix(1);
    }
  }
  return out;
}

std::string describe(const http::client_response& r) {
  auto e = read_error(r);
  if (r.status == 0)
    return e.message;
  if (e.code.empty())
    return fmt::format("HTTP {}: {}", r.status, e.message);
  return fmt::format("HTTP {} {}: {}", r.status, e.code, e.message);
}

std::optional<http::client_response> call(http::client& client, http::client_request request,
                                          const std::function<bool()>& stopping) {
  return http::send_and_wait(client, std::move(request), stopping);
}

} // namespace ganglion::aws
