#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "ganglion/http/listen.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::http::detail {

using namespace dsl::detail;

void check_webhook_at(const webhook_spec& w, const std::string& at, const load_context& cx,
                      bool require_method) {
  if (require(w.endpoint, child_path(at, "endpoint"), "endpoint", cx) && w.endpoint.front() != '/')
    cx.error(child_path(at, "endpoint"),
             "endpoint must start with \"/\", got \"" + w.endpoint + "\"");
  if (require(w.port, child_path(at, "port"), "port", cx) && !parse_port(w.port))
    cx.error(child_path(at, "port"), "port must be a number from 1 to 65535, got \"" + w.port
                                       + "\"");
  if (require_method)
    require(w.method, child_path(at, "method"), "method", cx);
  if (w.server_cert_secret.has_value() != w.server_key_secret.has_value())
    cx.error(child_path(at, w.server_cert_secret ? "serverCertSecret" : "serverKeySecret"),
             "TLS needs both serverCertSecret and serverKeySecret");
  if (w.max_payload_size <= 0)
    cx.error(child_path(at, "maxPayloadSize"), "maxPayloadSize must be positive");
  else if (w.max_payload_size > webhook_spec::max_payload_limit)
    cx.error(child_path(at, "maxPayloadSize"),
             "maxPayloadSize " + std::to_string(w.max_payload_size) + " is over ganglion's limit of "
               + std::to_string(webhook_spec::max_payload_limit) + " bytes (64 MiB)");
}

void check_webhook(const webhook_spec& w, const dsl::spec_check_input& in) {
  check_webhook_at(w, in.path, in.cx, true);
}

std::optional<dsl::spec_claim> webhook_claim(const webhook_spec& w) {
  auto port = parse_port(w.port);
  if (!port || w.endpoint.empty())
    return std::nullopt;
  return dsl::spec_claim{"endpoint " + w.endpoint + " on port " + std::to_string(*port),
                         "endpoint"};
}

void check_one_port(const webhook_spec& w, const dsl::spec_check_input& in) {
  check_one_port_at(w, in.path, in.cx);
}

void check_one_port_at(const webhook_spec& w, const std::string& at, const load_context& cx) {
  if (w.endpoint == "/health" || w.endpoint == "/ready")
    cx.error(child_path(at, "endpoint"),
                "endpoint " + w.endpoint + " is ganglion's own on the --listen port; choose "
                "another endpoint");
  if (w.server_cert_secret || w.server_key_secret)
    cx.warning(child_path(at, w.server_cert_secret ? "serverCertSecret" : "serverKeySecret"),
                  "not used with --listen: every webhook is served in plain HTTP on that one "
                  "port, and TLS ends at the platform in front of it (Knative's ingress, a load "
                  "balancer)");
}

std::optional<dsl::spec_claim> one_port_claim(const webhook_spec& w) {
  if (w.endpoint.empty())
    return std::nullopt;
  return dsl::spec_claim{"endpoint " + w.endpoint + " on the --listen port", "endpoint"};
}

void check_trigger(const trigger_spec& http, const dsl::spec_check_input& in) {
  const auto& path = in.path;
  const auto& cx = in.cx;
  const auto& scope = *in.scope;
  require(http.url, child_path(path, "url"), "url", cx);
  const auto& m = http.method;
  if (m != "GET" && m != "POST" && m != "PUT" && m != "PATCH" && m != "DELETE")
    cx.error(child_path(path, "method"),
             "method must be GET, POST, PUT, PATCH or DELETE, got \"" + m + "\"");
  validate_parameters(in.action->parameters, child_path(path, "parameters"), false, scope, cx,
                      "http.parameters");
  validate_parameters(in.action->payload, child_path(path, "payload"), true, scope, cx,
                      "http.payload");
  check_secure_headers(http.secure_headers, child_path(path, "secureHeaders"), cx);
}

} // namespace ganglion::http::detail
