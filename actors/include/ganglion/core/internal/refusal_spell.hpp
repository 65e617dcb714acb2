#pragma once

// Not installed: what a source that cannot redeliver (core NATS, Redis Pub/Sub, MQTT QoS 0)
// does with the bus's answers, so that each logs and counts a refusal the same way.

#include <atomic>
#include <cstdint>
#include <string>

#include <spdlog/spdlog.h>

#include "ganglion/core/bus.hpp"
#include "ganglion/core/internal/source_counters.hpp"

namespace ganglion::core {

/// Counts each outcome of a publish on `counters` and logs the spells in which the bus refuses:
/// one warning when a spell begins, one line with the number dropped when it ends.
/// Thread-safe.
class refusal_spell {
public:
  /// `name` begins each line (`nats source es/event`); `consequence` says what a refusal costs
  /// (`core NATS cannot redeliver, so messages are dropped until the bus accepts again`).
  refusal_spell(std::string name, std::string consequence)
    : name_(std::move(name)), consequence_(std::move(consequence)) {}

  /// Records one outcome; `filtered` is the core's to count.
  void record(publish_status status, const std::string& error, const source_counters& counters) {
    if (status == publish_status::filtered)
      return;
    if (status == publish_status::accepted) {
      counters.accepted();
      if (refusing_.exchange(false))
        spdlog::info("{}: the bus accepts events again; {} message(s) were dropped meanwhile",
                     name_, refused_.exchange(0));
      return;
    }
    counters.rejected(to_string(status));
    refused_.fetch_add(1);
    if (!refusing_.exchange(true))
      spdlog::warn("{}: the bus refused an event ({}{}); {}", name_, to_string(status),
                   error.empty() ? "" : ": " + error, consequence_);
  }

private:
  std::string name_;
  std::string consequence_;
  std::atomic<bool> refusing_{false};
  std::atomic<std::uint64_t> refused_{0};
};

} // namespace ganglion::core
