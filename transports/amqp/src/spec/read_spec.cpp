#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::amqp::detail {

using namespace dsl::detail;

namespace {

/// The part `key` when the manifest gives it as a mapping (Argo: a nil pointer takes the
/// part's defaults, a given one Go's zero values).
std::optional<YAML::Node> part(const YAML::Node& node, std::string_view key) {
  auto p = child(node, key);
  if (is_absent(p) || !p.IsMap())
    return std::nullopt;
  return p;
}

} // namespace

event_spec read_event(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  event_spec out;
  out.url = read_string(node, "url");
  out.url_secret = read_key_selector(node, "urlSecret");
  out.exchange_name = read_string(node, "exchangeName");
  out.exchange_type = read_string(node, "exchangeType");
  out.routing_key = read_string(node, "routingKey");
  if (auto b = part(node, "connectionBackoff"))
    out.connection_backoff = read_backoff(*b, child_path(in.path, "connectionBackoff"), in.cx);
  out.json_body = read_bool(node, "jsonBody");
  out.tls = read_tls(node, "tls");
  out.metadata = read_string_map(node, "metadata");
  if (auto p = part(node, "exchangeDeclare"))
    out.exchange = {read_bool(*p, "durable"), read_bool(*p, "autoDelete"),
                    read_bool(*p, "internal"), read_bool(*p, "noWait")};
  if (auto p = part(node, "queueDeclare"))
    out.queue = {read_string(*p, "name"),      read_bool(*p, "durable"),
                 read_bool(*p, "autoDelete"),  read_bool(*p, "exclusive"),
                 read_bool(*p, "noWait"),      read_string(*p, "arguments")};
  if (auto p = part(node, "queueBind"))
    out.bind = {read_bool(*p, "noWait")};
  if (auto p = part(node, "consume")) {
    out.consume_given = true;
    out.consumer = {read_string(*p, "consumerTag"), read_bool(*p, "autoAck"),
                    read_bool(*p, "exclusive"), read_bool(*p, "noLocal"), read_bool(*p, "noWait")};
  }
  if (auto p = part(node, "auth"))
    out.auth = dsl::basic_auth{read_key_selector(*p, "username"), read_key_selector(*p, "password")};
  return out;
}

} // namespace ganglion::amqp::detail
