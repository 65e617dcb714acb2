#include "ganglion/grpc/transport.hpp"

namespace ganglion::grpc {

void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        options opts) {
  sources["generic"] = make_source_factory(opts);
  triggers["custom"] = make_trigger_factory(opts);
}

} // namespace ganglion::grpc
