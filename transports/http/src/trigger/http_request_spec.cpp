#include "trigger/http_request_spec.hpp"

#include <algorithm>
#include <memory>
#include <stdexcept>

#include <curl/curl.h>
#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <strings.h>

#include "ganglion/core/secure_headers.hpp"

namespace ganglion::http::detail {

namespace {


bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size() && ::strncasecmp(a.data(), b.data(), a.size()) == 0;
}

bool has_header(const client_request& r, std::string_view name) {
  return std::any_of(r.headers.begin(), r.headers.end(),
                     [&](const auto& h) { return same_name(h.first, name); });
}

/// Throws unless `url` is an absolute http or https URL libcurl accepts.
void check_url(const std::string& url) {
  if (url.empty())
    throw std::runtime_error("http trigger url can't be empty");
  std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> handle{curl_url(), &curl_url_cleanup};
  if (!handle)
    throw std::bad_alloc();
  if (auto rc = curl_url_set(handle.get(), CURLUPART_URL, url.c_str(), 0); rc != CURLUE_OK)
    throw std::runtime_error(
      fmt::format("invalid http trigger url '{}': {}", url, curl_url_strerror(rc)));
  char* scheme = nullptr;
  curl_url_get(handle.get(), CURLUPART_SCHEME, &scheme, 0);
  std::string s = scheme ? scheme : "";
  curl_free(scheme);
  if (s != "http" && s != "https")
    throw std::runtime_error(
      fmt::format("invalid http trigger url '{}': the scheme must be http or https", url));
}

std::string string_field(const nlohmann::json& http, const char* name) {
  auto i = http.find(name);
  if (i == http.end() || i->is_null())
    return {};
  if (!i->is_string())
    throw std::runtime_error(fmt::format("http.{} must be a string, not {}", name, i->dump()));
  return i->get<std::string>();
}

} // namespace

request_template make_request_template(const core::trigger_context& ctx) {
  const auto& spec = core::spec_of<trigger_spec>(ctx);
  request_template t;
  t.fields = request_fields{spec.url, spec.method, spec.headers, spec.host, spec.timeout_seconds};
  t.secure_headers = core::read_secure_headers(ctx, spec.secure_headers);
  if (spec.basic_auth) {
    std::string user, password;
    if (spec.basic_auth->username)
      user = core::read_trigger_secret(ctx, *spec.basic_auth->username, "basicAuth.username");
    if (spec.basic_auth->password)
      password = core::read_trigger_secret(ctx, *spec.basic_auth->password, "basicAuth.password");
    t.basic_auth.emplace(std::move(user), std::move(password));
  }
  if (spec.tls) {
    client_tls tls;
    tls.insecure_skip_verify = spec.tls->insecure_skip_verify;
    if (spec.tls->ca_cert_secret)
      tls.ca_certificate_pem = core::read_trigger_secret(ctx, *spec.tls->ca_cert_secret, "tls.caCertSecret");
    if (spec.tls->client_cert_secret)
      tls.client_certificate_pem =
        core::read_trigger_secret(ctx, *spec.tls->client_cert_secret, "tls.clientCertSecret");
    if (spec.tls->client_key_secret)
      tls.client_key_pem = core::read_trigger_secret(ctx, *spec.tls->client_key_secret, "tls.clientKeySecret");
    t.tls = std::move(tls);
  }
  if (ctx.manifest->policy && ctx.manifest->policy->status)
    t.allow = ctx.manifest->policy->status->allow;
  return t;
}

request_fields read_request_fields(const std::string& http_json) {
  auto http = nlohmann::json::parse(http_json, nullptr, false);
  if (!http.is_object())
    throw std::runtime_error("the http trigger spec is not a JSON object");
  request_fields out;
  out.url = string_field(http, "url");
  out.method = string_field(http, "method");
  out.host = string_field(http, "host");
  if (auto i = http.find("headers"); i != http.end() && !i->is_null()) {
    if (!i->is_object())
      throw std::runtime_error(fmt::format("http.headers must be an object, not {}", i->dump()));
    for (const auto& [name, value] : i->items()) {
      if (!value.is_string())
        throw std::runtime_error(
          fmt::format("http.headers.{} must be a string, not {}", name, value.dump()));
      out.headers.emplace(name, value.get<std::string>());
    }
  }
  if (auto i = http.find("timeout"); i != http.end() && !i->is_null()) {
    if (!i->is_number_integer())
      throw std::runtime_error(
        fmt::format("http.timeout must be an integer number of seconds, not {}", i->dump()));
    out.timeout_seconds = i->get<std::int64_t>();
  }
  return out;
}

client_request make_request(const request_fields& fields, const request_template& t,
                            std::string body) {
  check_url(fields.url);
  client_request r;
  r.url = fields.url;
  r.method = fields.method.empty() ? "POST" : fields.method;
  std::transform(r.method.begin(), r.method.end(), r.method.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  r.timeout = std::chrono::seconds{fields.timeout_seconds > 0 ? fields.timeout_seconds : 60};
  for (const auto& [name, value] : fields.headers)
    r.headers.emplace_back(name, value);
  if (!fields.host.empty())
    r.headers.emplace_back("Host", fields.host);
  for (const auto& header : t.secure_headers)
    r.headers.push_back(header);
  if (!has_header(r, "Content-Type"))
    r.headers.emplace_back("Content-Type", "application/json");
  r.basic_auth = t.basic_auth;
  r.tls = t.tls;
  r.body = std::move(body);
  return r;
}

std::string describe_request(const client_request& request, const request_template& t) {
  auto out = fmt::format("{} {}\n", request.method, request.url);
  for (const auto& header : request.headers) {
    bool secure = std::find(t.secure_headers.begin(), t.secure_headers.end(), header)
                  != t.secure_headers.end();
    out += fmt::format("{}: {}\n", header.first, secure ? "***" : header.second);
  }
  if (request.basic_auth)
    out += "Authorization: Basic ***\n";
  out += "\n";
  out += request.body;
  return out;
}

} // namespace ganglion::http::detail
