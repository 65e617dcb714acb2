#include "trigger/rest_send.hpp"

#include <cctype>
#include <chrono>

#include <fmt/format.h>

#include "client/sas_token.hpp"

namespace ganglion::azure::detail {

namespace {

/// Azure's answers are small XML or JSON documents; a longer one is cut.
constexpr std::size_t max_answer_bytes = 64 * 1024;
/// How much of an error answer an outcome shows.
constexpr std::size_t shown_answer_bytes = 300;

core::trigger_outcome judge(const http::client_response& r) {
  core::trigger_outcome outcome;
  if (r.status == 0) {
    outcome.error = r.error.empty() ? "no HTTP response" : r.error;
    return outcome;
  }
  outcome.detail = fmt::format("HTTP {}", r.status);
  if (r.status < 200 || r.status > 299) {
    auto answer = r.body.substr(0, shown_answer_bytes);
    outcome.error = answer.empty() ? fmt::format("HTTP {}", r.status)
                                   : fmt::format("HTTP {}: {}", r.status, answer);
    return outcome;
  }
  outcome.ok = true;
  return outcome;
}

class rest_executor final : public core::trigger_executor {
public:
  rest_executor(std::shared_ptr<http::client> requests, rest_target target)
    : client_(std::move(requests)), target_(std::move(target)) {}

  void execute(const core::trigger_invocation& invocation, core::trigger_done done) override {
    auto request = build(invocation);
    if (!client_->submit(std::move(request), [done](http::client_response r) { done(judge(r)); }))
      done(core::trigger_outcome{false, "the HTTP client is saturated or shut down", {}});
  }

  std::string preview(const core::trigger_invocation& invocation) override {
    auto r = build(invocation);
    auto text = fmt::format("POST {}\n", r.url);
    for (const auto& [name, value] : r.headers)
      text += fmt::format("{}: {}\n", name,
                          name == "Authorization" ? "SharedAccessSignature (hidden)" : value);
    return text + "\n" + r.body;
  }

  /// It sends the resolved payload only.
  bool reads_events() const override { return false; }

private:
  http::client_request build(const core::trigger_invocation& invocation) const {
    http::client_request r;
    r.method = "POST";
    r.url = target_.url;
    r.body = invocation.payload;
    r.tls = target_.tls;
    r.max_response_bytes = max_answer_bytes;
    auto token = target_.fixed_token;
    if (token.empty()) {
      auto expiry = std::chrono::duration_cast<std::chrono::seconds>(
                      std::chrono::system_clock::now().time_since_epoch() + target_.token_lifetime)
                      .count();
      token = sas_token(target_.resource_uri, target_.key_name, target_.key, expiry);
    }
    r.headers.emplace_back("Authorization", std::move(token));
    r.headers.insert(r.headers.end(), target_.headers.begin(), target_.headers.end());
    return r;
  }

  std::shared_ptr<http::client> client_;
  rest_target target_;
};

bool all_of(const std::string& text, std::string_view extra) {
  for (unsigned char c : text)
    if (!std::isalnum(c) && extra.find(static_cast<char>(c)) == std::string_view::npos)
      return false;
  return true;
}

} // namespace

std::unique_ptr<core::trigger_executor> make_rest_executor(std::shared_ptr<http::client> requests,
                                                           rest_target target) {
  return std::make_unique<rest_executor>(std::move(requests), std::move(target));
}

std::string base_url(const std::string& endpoint, const std::string& host) {
  if (endpoint.empty())
    return "https://" + host;
  return endpoint.back() == '/' ? endpoint.substr(0, endpoint.size() - 1) : endpoint;
}

void check_entity_name(const std::string& name, const char* field) {
  if (name.empty() || !all_of(name, ".-_/~") || name.front() == '/'
      || name.find("..") != std::string::npos)
    throw core::trigger_error(
      fmt::format("{}: '{}' is not an Azure entity name (letters, digits, '.', '-', '_', '~', '/')",
                  field, name));
}

void check_host(const std::string& host, const char* field) {
  if (host.empty() || !all_of(host, ".-_:"))
    throw core::trigger_error(
      fmt::format("{}: '{}' is not a host name (<namespace>.servicebus.windows.net)", field, host));
}

http::client_tls read_tls(const core::trigger_context& ctx, const dsl::tls_config& tls) {
  http::client_tls out;
  out.insecure_skip_verify = tls.insecure_skip_verify;
  if (tls.ca_cert_secret)
    out.ca_certificate_pem =
      core::read_trigger_secret(ctx, *tls.ca_cert_secret, "tls.caCertSecret");
  if (tls.client_cert_secret)
    out.client_certificate_pem =
      core::read_trigger_secret(ctx, *tls.client_cert_secret, "tls.clientCertSecret");
  if (tls.client_key_secret)
    out.client_key_pem =
      core::read_trigger_secret(ctx, *tls.client_key_secret, "tls.clientKeySecret");
  return out;
}

} // namespace ganglion::azure::detail
