#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::email::detail {

using namespace dsl::detail;

void check_trigger(const trigger_spec& spec, const dsl::spec_check_input& in) {
  const auto& path = in.path;
  const auto& cx = in.cx;
  require(spec.host, child_path(path, "host"), "host", cx);
  if (spec.port < 0 || spec.port > 65535)
    cx.error(child_path(path, "port"), "port must be between 0 and 65535");
  check_secret(spec.smtp_password, child_path(path, "smtpPassword"), cx);
  validate_parameters(in.action->parameters, child_path(path, "parameters"), false, *in.scope, cx,
                      "email.parameters");
}

} // namespace ganglion::email::detail
