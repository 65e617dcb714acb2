#include "artifact/artifact.hpp"
#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::kubernetes::detail {

using namespace dsl::detail;

namespace {

std::shared_ptr<const artifact_location> read_source(const dsl::spec_read_input& in) {
  auto node = child(in.node, "source");
  if (is_absent(node) || !node.IsMap())
    return nullptr;
  return std::make_shared<const artifact_location>(
    read_artifact_location(node, child_path(in.path, "source"), in.cx));
}

} // namespace

k8s_trigger_spec read_k8s_trigger(const dsl::spec_read_input& in) {
  k8s_trigger_spec out;
  out.source = read_source(in);
  out.operation = read_string(in.node, "operation");
  out.patch_strategy = read_string(in.node, "patchStrategy");
  out.live_object = read_bool(in.node, "liveObject");
  return out;
}

workflow_trigger_spec read_workflow_trigger(const dsl::spec_read_input& in) {
  workflow_trigger_spec out;
  out.source = read_source(in);
  out.operation = read_string(in.node, "operation");
  out.args = read_string_list(in.node, "args");
  out.mapped = map_workflow_args(out.args, out.operation, out.arg_problems);
  return out;
}

} // namespace ganglion::kubernetes::detail
