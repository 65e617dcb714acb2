#include "ganglion/openwhisk/transport.hpp"

namespace ganglion::openwhisk {

void register_transport(core::trigger_registry& triggers,
                        const std::shared_ptr<http::runtime>& http) {
  triggers["openWhisk"] = make_trigger_factory(http->requests);
}

} // namespace ganglion::openwhisk
