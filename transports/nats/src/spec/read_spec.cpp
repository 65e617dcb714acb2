#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::nats::detail {

using namespace dsl::detail;

namespace {

std::optional<auth_spec> read_auth(const YAML::Node& map, std::string_view key) {
  auto node = child(map, key);
  if (is_absent(node) || !node.IsMap())
    return std::nullopt;
  auth_spec out;
  if (auto basic = child(node, "basic"); !is_absent(basic) && basic.IsMap())
    out.basic = dsl::basic_auth{read_key_selector(basic, "username"),
                           read_key_selector(basic, "password")};
  out.token = read_key_selector(node, "token");
  out.nkey = read_key_selector(node, "nkey");
  out.credential = read_key_selector(node, "credential");
  return out;
}

} // namespace

event_spec read_event(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  event_spec out;
  out.url = read_string(node, "url");
  out.subject = read_string(node, "subject");
  out.queue = read_string(node, "queue");
  out.json_body = read_bool(node, "jsonBody");
  out.tls = read_tls(node, "tls");
  out.auth = read_auth(node, "auth");
  out.metadata = read_string_map(node, "metadata");
  return out;
}

trigger_spec read_trigger(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  trigger_spec out;
  out.url = read_string(node, "url");
  out.subject = read_string(node, "subject");
  out.tls = read_tls(node, "tls");
  out.auth = read_auth(node, "auth");
  return out;
}

} // namespace ganglion::nats::detail
