#include "ganglion/kubernetes/transport.hpp"

#include "ganglion/kubernetes/resource_source.hpp"

namespace ganglion::kubernetes {

void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        options opts) {
  sources["resource"] = make_resource_source_factory(opts);
}

} // namespace ganglion::kubernetes
