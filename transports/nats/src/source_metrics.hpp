#pragma once

// Private: the counters of one nats source (the same families as the webhook source).

#include <cstdint>
#include <map>
#include <string>

#include "ganglion/core/metrics.hpp"

namespace ganglion::nats {

/// Counters of one source event, or no-ops when the engine has no metrics registry.
/// `ganglion_events_received_total`: messages the subscription delivered;
/// `ganglion_events_accepted_total`: events the bus accepted;
/// `ganglion_events_rejected_total{reason}`: `invalid_json`, `filtered`, `filter_error`,
/// `saturated`, `store_failed`, `stopped` (the bus refused it) and `slow_consumer` (dropped by
/// the client library before delivery).
class source_metrics {
public:
  source_metrics(core::metrics_registry* registry, const std::string& source,
                 const std::string& event) {
    if (registry == nullptr)
      return;
    core::labels series{{"eventsource", source}, {"event", event}};
    received_ = &registry->get_counter("ganglion_events_received_total",
                                       "Requests received by an event source", series);
    accepted_ = &registry->get_counter("ganglion_events_accepted_total",
                                       "Events an event source published to the bus", series);
    for (const char* reason : {"invalid_json", "filtered", "filter_error", "saturated",
                               "store_failed", "stopped", "slow_consumer"}) {
      auto labelled = series;
      labelled.emplace_back("reason", reason);
      rejected_.emplace(reason, &registry->get_counter("ganglion_events_rejected_total",
                                                       "Requests an event source refused, by reason",
                                                       labelled));
    }
  }

  /// One message delivered by the subscription.
  void received() const {
    if (received_)
      received_->inc();
  }
  /// One event accepted by the bus.
  void accepted() const {
    if (accepted_)
      accepted_->inc();
  }
  /// `n` messages dropped for `reason`.
  void rejected(const std::string& reason, std::uint64_t n = 1) const {
    if (auto i = rejected_.find(reason); i != rejected_.end())
      i->second->inc(n);
  }

private:
  core::counter* received_ = nullptr;
  core::counter* accepted_ = nullptr;
  std::map<std::string, core::counter*> rejected_;
};

} // namespace ganglion::nats
