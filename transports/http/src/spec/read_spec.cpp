#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::http::detail {

using namespace dsl::detail;

webhook_spec read_webhook(const dsl::spec_read_input& in) {
  return read_webhook_node(in.node);
}

webhook_spec read_webhook_node(const YAML::Node& node) {
  webhook_spec out;
  if (is_absent(node) || !node.IsMap())
    return out;
  out.endpoint = read_string(node, "endpoint");
  out.method = read_string(node, "method");
  out.port = read_string(node, "port");
  out.url = read_string(node, "url");
  out.server_cert_secret = read_key_selector(node, "serverCertSecret");
  out.server_key_secret = read_key_selector(node, "serverKeySecret");
  out.auth_secret = read_key_selector(node, "authSecret");
  out.max_payload_size = read_int(node, "maxPayloadSize", out.max_payload_size);
  out.metadata = read_string_map(node, "metadata");
  return out;
}

trigger_spec read_trigger(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  trigger_spec out;
  out.url = read_string(node, "url");
  out.method = read_string(node, "method", out.method);
  if (out.method.empty())
    out.method = "POST";
  out.headers = read_string_map(node, "headers");
  out.secure_headers = read_secure_headers(node, "secureHeaders");
  if (auto auth = child(node, "basicAuth"); !is_absent(auth) && auth.IsMap())
    out.basic_auth = dsl::basic_auth{read_key_selector(auth, "username"),
                                     read_key_selector(auth, "password")};
  out.tls = read_tls(node, "tls");
  out.timeout_seconds = read_int(node, "timeout", out.timeout_seconds);
  out.dynamic_headers = read_parameters(node, "dynamicHeaders");
  out.host = read_string(node, "host");
  return out;
}

} // namespace ganglion::http::detail
