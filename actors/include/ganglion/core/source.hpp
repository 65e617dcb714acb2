#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "ganglion/core/bus.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::core {

/// What the engine hands a source when it starts it.
struct source_context {
  std::string event_source_name;
  std::string event_name;
  std::string type; ///< the spec key, e.g. `webhook`
  const dsl::event_source* manifest = nullptr;
  std::shared_ptr<bus_publisher> bus;
  std::shared_ptr<const secret_store> secrets;
  metrics_registry* metrics = nullptr;
  /// Reports a failure after start (e.g. a broker connection lost for good): the engine stops
  /// the source and restarts it with backoff. Callable from any thread.
  std::function<void(const std::string& error)> fail;
};

/// A running event source; destroying it stops it (releases ports, connections, threads).
class source {
public:
  virtual ~source() = default;
};

/// Raised by a source factory when the source cannot start (port in use, missing secret …).
class source_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Starts a source of one type; returns once it listens. Throws source_error.
using source_factory = std::function<std::unique_ptr<source>(const source_context&)>;

/// Starts the source of `ctx` with `factory` behind the core's source step: when the event has
/// a `filter.expression`, the source publishes through it, and an event it drops is counted
/// (`ganglion_events_rejected_total{reason="filtered"|"filter_error"}`) and reported to the
/// source as publish_status::filtered. Throws source_error, also for an expression that does
/// not compile.
std::unique_ptr<source> start_source(const source_factory& factory, source_context ctx);

/// Source factories by spec key (`webhook`, `calendar` …).
using source_registry = std::map<std::string, source_factory>;

} // namespace ganglion::core
