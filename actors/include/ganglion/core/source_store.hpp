#pragma once

#include <functional>
#include <optional>
#include <memory>
#include <string>

namespace ganglion::dsl {
struct event_source;
} // namespace ganglion::dsl

namespace ganglion::core {

/// Small values an event source keeps across its restarts and the engine's (a calendar's last
/// tick): files in the data directory on the durable embedded bus, the bus's state on
/// JetStream and Kafka (shared by the replicas), memory when the engine keeps nothing on disk.
/// Thread-safe.
class source_store {
public:
  /// Called once with the outcome of save: an empty `error` means kept.
  using save_done = std::function<void(const std::string& error)>;

  virtual ~source_store() = default;

  /// The value kept under `key`; nullopt when there is none. Throws std::runtime_error when the
  /// store cannot be read (the bus does not answer).
  virtual std::optional<std::string> load(const std::string& key) = 0;

  /// Keeps `value` under `key`, replacing what was there; `done` runs once, at once or later
  /// on another thread. Saves of one key apply in the order they were made.
  virtual void save(const std::string& key, std::string value, save_done done) = 0;

  /// Where values are kept, for logs: `the data directory /d/sources`, `the jetstream bus`,
  /// `memory (lost at exit: no --data-dir)`.
  virtual std::string where() const = 0;

  /// False when the values are lost when the process exits.
  virtual bool durable() const = 0;
};

/// ConfigMaps of the cluster as stores (cluster mode; Argo keeps a calendar's last tick in one):
/// ConfigMap `name` of `owner`'s namespace, read and written as `owner` acts, created when
/// missing if `create`. Throws std::runtime_error when there is no usable Kubernetes client.
using config_map_stores = std::function<std::shared_ptr<source_store>(
  const dsl::event_source& owner, const std::string& name, bool create)>;

} // namespace ganglion::core
