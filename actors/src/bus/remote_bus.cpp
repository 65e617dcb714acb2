#include "ganglion/core/remote_bus.hpp"

#include <xxhash.h>

namespace ganglion::core {

std::uint32_t shard_of(const std::string& name, std::uint32_t shards) noexcept {
  if (shards == 0)
    return 0;
  return static_cast<std::uint32_t>(XXH3_64bits(name.data(), name.size()) % shards);
}

} // namespace ganglion::core
