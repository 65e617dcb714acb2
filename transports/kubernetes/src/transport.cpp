#include "ganglion/kubernetes/transport.hpp"

#include "ganglion/kubernetes/resource_source.hpp"
#include "trigger/trigger_factories.hpp"

namespace ganglion::kubernetes {

void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        options opts) {
  sources["resource"] = make_resource_source_factory(opts);
  triggers["k8s"] = detail::make_k8s_trigger_factory(opts);
  triggers["argoWorkflow"] = detail::make_workflow_trigger_factory(opts);
}

} // namespace ganglion::kubernetes
