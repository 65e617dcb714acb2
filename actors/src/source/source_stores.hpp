#pragma once

#include <memory>
#include <string>

#include "ganglion/core/remote_bus.hpp"
#include "ganglion/core/source_store.hpp"

namespace ganglion::core {

/// Values as files of `directory` (created when needed), one a key, replaced by rename: a
/// value saved survives the process being killed.
std::shared_ptr<source_store> make_file_source_store(std::string directory);

/// Values in memory: they outlive reloads, not the process.
std::shared_ptr<source_store> make_memory_source_store();

/// Values in `bus`'s state store under `source.<key>`, shared by the replicas.
std::shared_ptr<source_store> make_remote_source_store(std::shared_ptr<remote_bus> bus);

} // namespace ganglion::core
