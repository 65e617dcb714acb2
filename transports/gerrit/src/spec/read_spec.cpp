#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/http/internal/push_spec.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::gerrit::detail {

using namespace dsl::detail;

event_spec read_event(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  event_spec out;
  out.webhook = http::read_webhook_context(node);
  out.hook_name = read_string(node, "hookName");
  out.events = read_string_list(node, "events");
  if (auto auth = child(node, "auth"); auth.IsMap())
    out.auth = dsl::basic_auth{read_key_selector(auth, "username"),
                               read_key_selector(auth, "password")};
  out.gerrit_base_url = read_string(node, "gerritBaseURL");
  out.delete_hook_on_finish = read_bool(node, "deleteHookOnFinish");
  out.metadata = read_string_map(node, "metadata");
  out.projects = read_string_list(node, "projects");
  out.ssl_verify = read_bool(node, "sslVerify");
  out.max_tries = read_int(node, "maxTries");
  return out;
}

} // namespace ganglion::gerrit::detail
