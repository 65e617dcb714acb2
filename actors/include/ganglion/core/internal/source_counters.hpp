#pragma once

// Not installed: the counters every source type keeps, in the same metric families, so
// dashboards see webhook, kafka and nats sources alike.

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>

#include "ganglion/core/metrics.hpp"

namespace ganglion::core {

/// Counters of one source event (labels `eventsource`, `event`), or no-ops when the engine has
/// no metrics registry: `ganglion_events_received_total`, `ganglion_events_accepted_total` and
/// `ganglion_events_rejected_total{reason}` for each of the source type's `reasons`.
class source_counters {
public:
  source_counters(metrics_registry* registry, const std::string& source, const std::string& event,
                  std::initializer_list<const char*> reasons)
    : registry_(registry), series_{{"eventsource", source}, {"event", event}} {
    if (registry == nullptr)
      return;
    const auto& series = series_;
    received_ = &registry->get_counter("ganglion_events_received_total",
                                       "Requests received by an event source", series);
    accepted_ = &registry->get_counter("ganglion_events_accepted_total",
                                       "Events an event source published to the bus", series);
    for (const char* reason : reasons) {
      auto labelled = series;
      labelled.emplace_back("reason", reason);
      rejected_.emplace(reason, &registry->get_counter("ganglion_events_rejected_total",
                                                       "Requests an event source refused, by reason",
                                                       labelled));
    }
  }

  /// One message or request received.
  void received() const {
    if (received_)
      received_->inc();
  }
  /// One event accepted by the bus.
  void accepted() const {
    if (accepted_)
      accepted_->inc();
  }
  /// `n` messages refused or dropped for `reason` (one of the reasons given at construction).
  void rejected(const std::string& reason, std::uint64_t n = 1) const {
    if (auto i = rejected_.find(reason); i != rejected_.end())
      i->second->inc(n);
  }

  /// One connection to the source's system made again after it lost one
  /// (`ganglion_source_reconnects_total`; the series appears with the first).
  void reconnected() const {
    if (registry_)
      registry_
        ->get_counter("ganglion_source_reconnects_total",
                      "Connections an event source made again after it lost one", series_)
        .inc();
  }

  /// Shows what `read` returns as `ganglion_source_lag`: the messages a pull source's broker
  /// or client library holds for it that it has not read yet (what an autoscaler reads).
  /// `read` runs under the registry's lock: cheap, and not using the registry.
  void track_lag(std::function<std::int64_t()> read) const {
    if (registry_)
      registry_->set_gauge("ganglion_source_lag",
                           "Messages held for a pull source that it has not read yet (kafka: "
                           "high watermark minus position over its partitions; nats: messages "
                           "waiting in its subscription; amqp: messages ready in its queue)",
                           series_, std::move(read));
  }

private:
  metrics_registry* registry_ = nullptr;
  labels series_;
  counter* received_ = nullptr;
  counter* accepted_ = nullptr;
  std::map<std::string, counter*> rejected_;
};

/// source_counters of a source whose messages come from a broker and must be JSON when
/// `jsonBody` is set (mqtt, amqp, redis): received are the messages delivered (or read);
/// rejection reasons `invalid_json` and the bus's refusals `saturated`, `store_failed`,
/// `stopped`. The core counts `filtered` and `filter_error`.
class message_source_counters : public source_counters {
public:
  message_source_counters(metrics_registry* registry, const std::string& source,
                          const std::string& event)
    : source_counters(registry, source, event,
                      {"invalid_json", "saturated", "store_failed", "stopped"}) {}
};

} // namespace ganglion::core
