#include "ganglion/http/http_trigger.hpp"

#include <algorithm>
#include <map>
#include <mutex>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <simdjson.h>
#include <strings.h>

#include "ganglion/dsl/internal/parameters.hpp"

namespace ganglion::http {

namespace {

/// The fixed part of every request of one trigger.
struct request_template {
  client_request request;
  std::vector<std::int32_t> allow;
  bool has_payload = false;
};

std::string read_secret(const core::trigger_context& ctx, const dsl::secret_key_selector& ref,
                        const char* field) {
  if (!ctx.secrets)
    throw core::trigger_error(fmt::format(
      "{}: secret {}/{} is needed but no secret store is configured", field, ref.name, ref.key));
  std::string error;
  auto value = ctx.secrets->read(ref.name, ref.key, &error);
  if (!value)
    throw core::trigger_error(fmt::format("{}: {}", field, error));
  return *value;
}

bool is_json_content(std::string_view type) {
  return type.empty() || type.find("json") != std::string_view::npos;
}

bool has_header(const client_request& r, std::string_view name) {
  return std::any_of(r.headers.begin(), r.headers.end(), [&](const auto& h) {
    return h.first.size() == name.size() &&
           ::strncasecmp(h.first.data(), name.data(), name.size()) == 0;
  });
}

core::trigger_outcome judge(const client_response& r, const std::vector<std::int32_t>& allow) {
  core::trigger_outcome outcome;
  if (r.status == 0) {
    outcome.error = r.error.empty() ? "no HTTP response" : r.error;
    return outcome;
  }
  outcome.detail = fmt::format("HTTP {}", r.status);
  if (!allow.empty() && std::find(allow.begin(), allow.end(), r.status) == allow.end()) {
    outcome.error = fmt::format("HTTP {} is not in policy.status.allow [{}]", r.status,
                                fmt::join(allow, ", "));
    return outcome;
  }
  outcome.ok = true;
  return outcome;
}

std::shared_ptr<const request_template> make_template(const core::trigger_context& ctx,
                                                      const dsl::http_trigger& spec) {
  auto t = std::make_shared<request_template>();
  auto& r = t->request;
  if (spec.url.empty())
    throw core::trigger_error("http trigger url can't be empty");
  r.url = spec.url;
  r.method = spec.method.empty() ? "POST" : spec.method;
  std::transform(r.method.begin(), r.method.end(), r.method.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  auto seconds = spec.timeout_seconds > 0 ? spec.timeout_seconds : 60;
  r.timeout = std::chrono::seconds{seconds};
  for (const auto& [name, value] : spec.headers)
    r.headers.emplace_back(name, value);
  if (!spec.host.empty())
    r.headers.emplace_back("Host", spec.host);
  for (const auto& header : spec.secure_headers) {
    if (header.config_map)
      throw core::trigger_error(
        fmt::format("secureHeaders {}: configMapKeyRef is not supported yet", header.name));
    if (!header.secret)
      throw core::trigger_error(
        fmt::format("secureHeaders {}: valueFrom.secretKeyRef is missing", header.name));
    r.headers.emplace_back(header.name, read_secret(ctx, *header.secret, "secureHeaders"));
  }
  if (!has_header(r, "Content-Type"))
    r.headers.emplace_back("Content-Type", "application/json");
  if (spec.basic_auth_) {
    std::string user, password;
    if (spec.basic_auth_->username)
      user = read_secret(ctx, *spec.basic_auth_->username, "basicAuth.username");
    if (spec.basic_auth_->password)
      password = read_secret(ctx, *spec.basic_auth_->password, "basicAuth.password");
    r.basic_auth.emplace(std::move(user), std::move(password));
  }
  if (spec.tls) {
    client_tls tls;
    tls.insecure_skip_verify = spec.tls->insecure_skip_verify;
    if (spec.tls->ca_cert_secret)
      tls.ca_certificate_pem = read_secret(ctx, *spec.tls->ca_cert_secret, "tls.caCertSecret");
    if (spec.tls->client_cert_secret)
      tls.client_certificate_pem =
        read_secret(ctx, *spec.tls->client_cert_secret, "tls.clientCertSecret");
    if (spec.tls->client_key_secret)
      tls.client_key_pem = read_secret(ctx, *spec.tls->client_key_secret, "tls.clientKeySecret");
    r.tls = std::move(tls);
  }
  if (ctx.manifest->policy && ctx.manifest->policy->status)
    t->allow = ctx.manifest->policy->status->allow;
  t->has_payload = !spec.payload.empty();
  return t;
}

/// Runs one http trigger: builds the payload on the calling thread, sends it on the client's.
class http_executor final : public core::trigger_executor {
public:
  http_executor(std::shared_ptr<client> requests, std::shared_ptr<const request_template> t,
                std::vector<dsl::compiled_parameter> payload)
    : client_(std::move(requests)), template_(std::move(t)), payload_(std::move(payload)) {}

  void execute(const core::trigger_invocation& invocation, core::trigger_done done) override {
    client_request r = template_->request;
    if (template_->has_payload) {
      try {
        r.body = build_body(invocation);
      } catch (const std::exception& e) {
        done(
          core::trigger_outcome{false, fmt::format("cannot build the payload: {}", e.what()), {}});
        return;
      }
    }
    auto completion = [t = template_, done](client_response response) {
      done(judge(response, t->allow));
    };
    if (!client_->submit(std::move(r), std::move(completion)))
      done(core::trigger_outcome{false, "the HTTP client is saturated or shut down", {}});
  }

private:
  std::string build_body(const core::trigger_invocation& invocation) {
    std::lock_guard guard{mutex_};
    std::map<std::string, dsl::event_view, std::less<>> views;
    for (const auto& [dependency, e] : invocation.events) {
      if (!e)
        continue;
      dsl::event_view view;
      view.id = e->id;
      view.source = e->source;
      view.specversion = e->specversion;
      view.type = e->type;
      view.datacontenttype = e->datacontenttype;
      view.subject = e->subject;
      view.time = e->time;
      view.data_raw = e->data;
      if (!e->data.empty() && is_json_content(e->datacontenttype)) {
        auto parsed = parsers_[dependency].parse(e->data);
        if (!parsed.error()) {
          view.data = parsed.value_unsafe();
          view.data_is_json = true;
        }
      }
      views.emplace(dependency, view);
    }
    dsl::event_lookup lookup = [&views](std::string_view dependency) -> const dsl::event_view* {
      auto i = views.find(dependency);
      return i == views.end() ? nullptr : &i->second;
    };
    return dsl::build_payload(payload_, lookup);
  }

  std::shared_ptr<client> client_;
  std::shared_ptr<const request_template> template_;
  std::vector<dsl::compiled_parameter> payload_;
  std::mutex mutex_;
  std::map<std::string, simdjson::dom::parser, std::less<>> parsers_;
};

std::unique_ptr<core::trigger_executor> create(const std::shared_ptr<client>& requests,
                                               const core::trigger_context& ctx) {
  if (ctx.manifest == nullptr || !ctx.manifest->template_.http)
    throw core::trigger_error("http trigger started without template.http");
  const auto& spec = *ctx.manifest->template_.http;
  if (!ctx.manifest->parameters.empty())
    throw core::trigger_error("template parameters are not supported yet");
  if (!spec.parameters.empty())
    throw core::trigger_error("http.parameters are not supported yet");
  if (!spec.dynamic_headers.empty())
    throw core::trigger_error("http.dynamicHeaders are not supported yet");
  std::vector<dsl::compiled_parameter> payload;
  payload.reserve(spec.payload.size());
  for (std::size_t i = 0; i < spec.payload.size(); ++i) {
    try {
      payload.emplace_back(spec.payload[i]);
    } catch (const std::exception& e) {
      throw core::trigger_error(fmt::format("http.payload[{}]: {}", i, e.what()));
    }
  }
  return std::make_unique<http_executor>(requests, make_template(ctx, spec), std::move(payload));
}

} // namespace

core::trigger_factory make_http_trigger_factory(std::shared_ptr<client> requests) {
  return [requests = std::move(requests)](const core::trigger_context& ctx) {
    return create(requests, ctx);
  };
}

} // namespace ganglion::http
