#include "ganglion/dsl/kind/read.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::openwhisk::detail {

using namespace dsl::detail;

trigger_spec read_trigger(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  trigger_spec out;
  out.host = read_string(node, "host");
  // OpenWhisk's client takes an empty version or namespace as its default.
  if (auto version = read_string(node, "version"); !version.empty())
    out.version = version;
  if (auto ns = read_string(node, "namespace"); !ns.empty())
    out.namespace_ = ns;
  out.auth_token = read_key_selector(node, "authToken");
  out.action_name = read_string(node, "actionName");
  return out;
}

} // namespace ganglion::openwhisk::detail
