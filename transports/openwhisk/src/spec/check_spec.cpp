#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::openwhisk::detail {

using namespace dsl::detail;

void check_trigger(const trigger_spec& spec, const dsl::spec_check_input& in) {
  const auto& path = in.path;
  const auto& cx = in.cx;
  require(spec.action_name, child_path(path, "actionName"), "actionName", cx);
  require(spec.host, child_path(path, "host"), "host", cx);
  if (spec.auth_token && (spec.auth_token->name.empty() || spec.auth_token->key.empty()))
    cx.error(child_path(path, "authToken"), "authToken needs both name and key");
  validate_parameters(in.action->parameters, child_path(path, "parameters"), false, *in.scope, cx,
                      "openWhisk.parameters");
  require_payload(in.action->payload, path, "openWhisk", *in.scope, cx);
}

} // namespace ganglion::openwhisk::detail
