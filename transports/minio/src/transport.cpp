#include "ganglion/minio/transport.hpp"

namespace ganglion::minio {

void register_transport(core::source_registry& sources) {
  sources["minio"] = make_source_factory();
}

} // namespace ganglion::minio
