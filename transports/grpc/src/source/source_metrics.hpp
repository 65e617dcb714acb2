#pragma once

// Private: the counters of one generic source.

#include <string>

#include "ganglion/core/internal/source_counters.hpp"

namespace ganglion::grpc::detail {

/// Counters of one generic source event: received are the stream messages read; rejection
/// reasons `invalid_json` (jsonBody and a payload that is not JSON), `too_large` (over
/// options::max_payload_bytes, or a message gRPC refused) and `stopped` (read, but the source
/// stopped before the bus took it). `ganglion_source_connect_failures_total` counts failed
/// connection attempts and streams that ended in error.
class source_metrics : public core::source_counters {
public:
  source_metrics(core::metrics_registry* registry, const std::string& source,
                 const std::string& event)
    : source_counters(registry, source, event, {"invalid_json", "too_large", "stopped"}) {
    if (registry != nullptr)
      connect_failures_ = &registry->get_counter(
        "ganglion_source_connect_failures_total",
        "Connection attempts of an event source that failed, and streams that ended in error",
        {{"eventsource", source}, {"event", event}});
  }

  /// One failed attempt or broken stream.
  void connect_failed() const {
    if (connect_failures_)
      connect_failures_->inc();
  }

private:
  core::counter* connect_failures_ = nullptr;
};

} // namespace ganglion::grpc::detail
