#include "ganglion/kubernetes/transport.hpp"

namespace ganglion::kubernetes {

void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        options opts) {}

} // namespace ganglion::kubernetes
