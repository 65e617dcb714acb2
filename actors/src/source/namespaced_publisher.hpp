#pragma once

// Not installed: every event a source publishes carries its EventSource's namespace, which
// keeps it to the Sensors of that namespace (Argo runs one EventBus per namespace).

#include <memory>
#include <string>

#include "ganglion/core/bus.hpp"

namespace ganglion::core {

/// A bus publisher that sets `namespace_` on each event before passing it on.
class namespaced_publisher final : public bus_publisher {
public:
  /// Publishes to `bus` the events of an EventSource in `namespace_name` (not empty).
  namespaced_publisher(std::string namespace_name, std::shared_ptr<bus_publisher> bus);

  /// Stamps `e` with the namespace and publishes it.
  void publish(event&& e, publish_done done) override;

private:
  std::string namespace_;
  std::shared_ptr<bus_publisher> bus_;
};

} // namespace ganglion::core
