#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

namespace ganglion::core {

/// Counts units of work in flight (events not yet processed by sensors, firings not yet
/// finished by triggers) so that shutdown can wait for them.
class work_tracker {
public:
  /// Adds `n` units.
  void add(std::int64_t n = 1) noexcept { count_.fetch_add(n, std::memory_order_acq_rel); }
  /// Removes `n` units.
  void done(std::int64_t n = 1) noexcept { count_.fetch_sub(n, std::memory_order_acq_rel); }
  /// Units in flight.
  std::int64_t pending() const noexcept { return count_.load(std::memory_order_acquire); }

private:
  std::atomic<std::int64_t> count_{0};
};

/// Units of a work_tracker that a message carries to an actor. Should the message be dropped
/// undelivered (its receiver ended with it in the mailbox), the units go back to the tracker
/// when the last copy is destroyed; a receiver that gets the message takes them over.
class work_ticket {
public:
  work_ticket(std::shared_ptr<work_tracker> tracker, std::int64_t units) noexcept
    : tracker_(std::move(tracker)), units_(units) {}
  ~work_ticket() {
    if (tracker_)
      tracker_->done(units_);
  }
  work_ticket(const work_ticket&) = delete;
  work_ticket& operator=(const work_ticket&) = delete;

  /// The receiver accounts for the units from now on.
  void take() noexcept { tracker_.reset(); }

private:
  std::shared_ptr<work_tracker> tracker_;
  std::int64_t units_;
};

/// Takes over the units a received message carries (`ticket` may be null: none).
inline void take_units(const std::shared_ptr<work_ticket>& ticket) noexcept {
  if (ticket)
    ticket->take();
}

} // namespace ganglion::core
