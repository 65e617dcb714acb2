#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <unordered_set>

#include "sensor/event_ledger.hpp"
#include "sensor/held_events.hpp"
#include "ganglion/core/remote_bus.hpp"

namespace ganglion::core {

/// The at-least-once bookkeeping of a sensor on a remote bus (JetStream, Kafka). A finished
/// event is acknowledged to the bus at once. Every `snapshot_interval` the unfinished events
/// (those joins hold, those `atLeastOnce` executions hold) are written to the bus's state store
/// under `sensor.<name>` and then acknowledged too, so the bus does not deliver them again while
/// they wait. When this replica dies, the replica that takes the sensor over loads them from
/// the store and processes them again: a half-satisfied join is rebuilt, an unfinished
/// execution runs again.
class remote_ledger final : public event_ledger {
public:
  /// `bus` keeps the state; `interval` is how often unfinished events are stored.
  remote_ledger(std::string name, std::shared_ptr<remote_bus> bus,
                std::chrono::milliseconds interval);

  /// The subscription finished events are acknowledged to (set once it is open).
  void attach(std::shared_ptr<remote_subscription> subscription);

  void recover(dedup_window& dedup,
               const std::function<void(const event_ptr&)>& deliver) override;
  event_ptr admit(const event_ptr& e) override;
  void release(std::map<std::string, event_ptr>& events) const override;
  std::size_t commit(bool force_snapshot = false) override;
  std::size_t unfinished() const noexcept override { return held_.size(); }
  const std::shared_ptr<unfinished_events>& kept() const noexcept override { return kept_; }

  /// The state store key of `sensor`.
  static std::string key_of(const std::string& sensor);

private:
  void store_unfinished();

  std::string name_;
  std::string key_;
  std::shared_ptr<remote_bus> bus_;
  std::chrono::milliseconds interval_;
  std::shared_ptr<remote_subscription> subscription_;
  std::shared_ptr<unfinished_events> kept_ = std::make_shared<unfinished_events>();
  held_events held_;
  /// Unfinished events the latest store holds (they are acknowledged once it is stored).
  std::set<std::uint64_t> stored_;
  /// Events the store held at recovery: the bus may deliver them again; they are skipped.
  std::unordered_set<std::uint64_t> recovered_;
  /// Set by a failed store; the next commit stores everything again.
  std::shared_ptr<std::atomic<bool>> store_failed_ = std::make_shared<std::atomic<bool>>(false);
  bool dirty_ = false;
  std::chrono::steady_clock::time_point last_store_{};
};

} // namespace ganglion::core
