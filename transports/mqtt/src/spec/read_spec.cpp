#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::mqtt::detail {

using namespace dsl::detail;

event_spec read_event(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  event_spec out;
  out.url = read_string(node, "url");
  out.topic = read_string(node, "topic");
  out.client_id = read_string(node, "clientId");
  if (auto b = child(node, "connectionBackoff"); !is_absent(b) && b.IsMap())
    out.connection_backoff = read_backoff(b, child_path(in.path, "connectionBackoff"), in.cx);
  out.json_body = read_bool(node, "jsonBody");
  out.tls = read_tls(node, "tls");
  if (auto auth = child(node, "auth"); !is_absent(auth) && auth.IsMap())
    out.auth = dsl::basic_auth{read_key_selector(auth, "username"),
                               read_key_selector(auth, "password")};
  out.metadata = read_string_map(node, "metadata");
  return out;
}

} // namespace ganglion::mqtt::detail
