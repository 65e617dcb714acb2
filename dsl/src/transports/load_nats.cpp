#include "load/load_common.hpp"
#include "transports/load_transports.hpp"
#include "yaml/yaml_node.hpp"

namespace ganglion::dsl::detail {

nats_event read_nats_event(const YAML::Node& node) {
  nats_event out;
  out.url = read_string(node, "url");
  out.subject = read_string(node, "subject");
  out.queue = read_string(node, "queue");
  out.json_body = read_bool(node, "jsonBody");
  out.tls = read_tls(node, "tls");
  out.auth = read_nats_auth(node, "auth");
  out.metadata = read_string_map(node, "metadata");
  out.filter = read_source_filter(node);
  return out;
}

nats_trigger read_nats_trigger(const YAML::Node& node) {
  nats_trigger out;
  out.url = read_string(node, "url");
  out.subject = read_string(node, "subject");
  out.payload = read_parameters(node, "payload");
  out.parameters = read_parameters(node, "parameters");
  out.tls = read_tls(node, "tls");
  out.auth = read_nats_auth(node, "auth");
  return out;
}

} // namespace ganglion::dsl::detail
