#include "ganglion/http/webhook.hpp"

#include <fmt/format.h>

#include "ganglion/core/kind_check.hpp"
#include "ganglion/http/internal/webhook_data.hpp"
#include "ganglion/http/listen.hpp"
#include "ganglion/http/push_source.hpp"
#include "ganglion/http/spec.hpp"

namespace ganglion::http {

namespace {

/// Argo's webhook HandleRoute: the body (JSON, a form, or a GET's query) into the event data.
push_outcome webhook_outcome(const request& req, const std::map<std::string, std::string>& metadata) {
  std::string body;
  if (req.method == "GET") {
    body = detail::query_to_json(req.query);
  } else if (detail::is_form_content_type(req.header("Content-Type"))) {
    body = detail::query_to_json(req.body);
  } else {
    std::string error;
    auto minified = detail::validate_json(req.body, error);
    if (!minified)
      return push_outcome::refuse(400, "bad_request",
                                  "the request body is not valid JSON: " + error);
    body = std::move(*minified);
  }
  return push_outcome::publish(
    detail::webhook_event_data(detail::headers_to_json(req.headers, true), body, metadata));
}

} // namespace

std::vector<std::string> check_webhook_source(const core::source_context& ctx) {
  return core::check_spec<webhook_spec>(ctx, [&](const auto& spec) {
    std::vector<std::string> problems;
    if (spec.endpoint.empty() || spec.endpoint.front() != '/')
      problems.push_back(fmt::format("webhook endpoint must start with '/': '{}'", spec.endpoint));
    if (spec.method.empty())
      problems.emplace_back("webhook method can't be empty");
    if (spec.max_payload_size <= 0 || spec.max_payload_size > webhook_spec::max_payload_limit)
      problems.push_back(fmt::format("webhook maxPayloadSize must be from 1 to {}, got {}",
                                     webhook_spec::max_payload_limit, spec.max_payload_size));
    if (!parse_port(spec.port))
      problems.push_back(
        fmt::format("invalid webhook port '{}': expected 1-65535", spec.port));
    if (spec.server_cert_secret.has_value() != spec.server_key_secret.has_value())
      problems.emplace_back("webhook TLS needs both serverCertSecret and serverKeySecret");
    return problems;
  });
}

core::source_factory make_webhook_source_factory(std::shared_ptr<server_pool> servers,
                                                 std::string bind_host,
                                                 std::optional<listen_address> listen) {
  auto one_port = listen.has_value();
  return {[servers = std::move(servers), bind_host = std::move(bind_host),
           listen = std::move(listen)](const core::source_context& ctx) {
            const auto& spec = core::spec_of<webhook_spec>(ctx);
            push_route route{spec, [metadata = spec.metadata](const request& req) {
                               return webhook_outcome(req, metadata);
                             },
                             true};
            return start_push_source(*servers, bind_host, listen, ctx, std::move(route));
          },
          check_webhook_source, webhook_spec_step(one_port)};
}

} // namespace ganglion::http
