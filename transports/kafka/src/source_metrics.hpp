#pragma once

#include <map>
#include <string>

#include "ganglion/core/metrics.hpp"

namespace ganglion::kafka::detail {

/// Counters of one kafka source (labels `eventsource`, `event`); no-ops without a registry.
/// The families are the webhook's, so dashboards see every source type alike.
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
    for (const char* reason : {"bad_body", "saturated", "stopped", "store_failed"}) {
      auto labelled = series;
      labelled.emplace_back("reason", reason);
      rejected_.emplace(reason, &registry->get_counter("ganglion_events_rejected_total",
                                                       "Requests an event source refused, by reason",
                                                       labelled));
    }
  }

  /// A message was read.
  void received() const {
    if (received_)
      received_->inc();
  }
  /// The bus accepted an event.
  void accepted() const {
    if (accepted_)
      accepted_->inc();
  }
  /// A message was dropped (`bad_body`) or an offer refused (`saturated`, `stopped`,
  /// `store_failed`).
  void rejected(const std::string& reason) const {
    if (auto i = rejected_.find(reason); i != rejected_.end())
      i->second->inc();
  }

private:
  core::counter* received_ = nullptr;
  core::counter* accepted_ = nullptr;
  std::map<std::string, core::counter*> rejected_;
};

} // namespace ganglion::kafka::detail
