#include "ganglion/redis/transport.hpp"

namespace ganglion::redis {

void register_transport(core::source_registry& sources, options opts) {
  sources["redis"] = make_source_factory(opts);
  sources["redisStream"] = make_stream_source_factory(opts);
}

} // namespace ganglion::redis
