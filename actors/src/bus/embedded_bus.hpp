#pragma once

#include <atomic>
#include <limits>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include <caf/all.hpp>
#include <concurrentqueue/concurrentqueue.h>

#include "ganglion/core/bus.hpp"
#include "ganglion/core/metrics.hpp"
#include "bus/route_index.hpp"
#include "runtime/sensor_backlog.hpp"
#include "runtime/work_tracker.hpp"

namespace ganglion::core {

class event_log;

/// The embedded bus. Bounded by the number of events alive in the engine and by their bytes: an
/// event counts from its accepted publish until the last sensor, join and trigger lets go of
/// it, so a slow trigger pushes back to the sources (publish → saturated) instead of losing
/// events or memory. With a
/// log, an event is written to it (durably under its fsync policy) before it is accepted and
/// delivered; without one, events live in memory only.
class embedded_bus : public bus_publisher {
public:
  /// `capacity`: events alive at once; `work` counts events not yet processed by sensors;
  /// `log`: where accepted events are written first (null: in memory only); `byte_capacity`:
  /// bytes of events alive at once (an event larger than that is taken only into an empty bus).
  embedded_bus(std::size_t capacity, metrics_registry& metrics, std::shared_ptr<work_tracker> work,
               std::shared_ptr<event_log> log = nullptr,
               std::size_t byte_capacity = std::numeric_limits<std::size_t>::max());

  void publish(event&& e, publish_done done) override;

  /// Publishes and waits for the outcome (tests and benchmarks).
  publish_status publish(event&& e);

  /// The log events are written to, or null.
  const std::shared_ptr<event_log>& log() const noexcept { return log_; }

  /// Sets the actor that drains the queue (on start and after a restart).
  void set_dispatcher(caf::actor dispatcher);

  /// Routes events of (source, subject) to `subscriber`.
  void subscribe(const std::string& source, const std::string& subject, caf::actor subscriber);

  /// Counts what is routed to `subscriber` and not judged yet in `backlog` (its sensor's).
  void track(const caf::actor& subscriber, std::shared_ptr<sensor_backlog> backlog);

  /// Removes every route to the actor with address `subscriber`, and its backlog.
  void unsubscribe(const caf::actor_addr& subscriber);

  /// Removes the route of (source, subject) to the actor with address `subscriber`.
  void unsubscribe(const std::string& source, const std::string& subject,
                   const caf::actor_addr& subscriber);

  /// Refuses every later publish.
  void close() noexcept { closed_.store(true); }

  /// Moves queued events to their subscribers in batches (called by the dispatcher actor).
  void drain(caf::event_based_actor* self);

  /// Events alive in the engine.
  std::size_t live() const noexcept { return live_->events.load(); }

  /// Bytes of the events alive in the engine (their fields' sizes).
  std::size_t live_bytes() const noexcept { return live_->bytes.load(); }

  /// Events accepted and not yet handed to sensors.
  std::size_t queued() const noexcept { return queue_.size_approx(); }

private:
  using route_table = route_index<caf::actor>;

  /// What the events alive in the engine hold; each live event lets go of its share.
  struct live_counts {
    std::atomic<std::size_t> events{0};
    std::atomic<std::size_t> bytes{0};

    /// Takes one event of `size` bytes out of the counts.
    void release(std::size_t size) noexcept {
      events.fetch_sub(1, std::memory_order_acq_rel);
      bytes.fetch_sub(size, std::memory_order_acq_rel);
    }
  };

  struct live_event;

  /// Counts an event of `bytes` in live_ unless that would pass a capacity.
  bool admit(std::size_t bytes);
  /// Queues an accepted event (already counted in live_) for the dispatcher.
  void enqueue(event&& e, std::size_t bytes);

  std::size_t capacity_;
  std::size_t byte_capacity_;
  std::shared_ptr<live_counts> live_;
  std::shared_ptr<work_tracker> work_;
  std::shared_ptr<event_log> log_;
  std::atomic<bool> closed_{false};
  std::atomic<bool> wake_pending_{false};
  /// An accepted event and its place in the order of publishes.
  struct sequenced_event {
    std::uint64_t sequence = 0;
    event_ptr event;
  };

  moodycamel::ConcurrentQueue<sequenced_event> queue_;
  std::atomic<std::uint64_t> next_sequence_{0};
  /// What one drain took from the queue (dispatcher only).
  std::vector<sequenced_event> drained_;
  std::mutex mutex_;
  caf::actor dispatcher_;
  route_table routes_; ///< guarded by mutex_
  /// The backlog of each tracked subscriber, guarded by mutex_.
  std::unordered_map<caf::actor, std::shared_ptr<sensor_backlog>> backlogs_;
  counter& accepted_;
  counter& saturated_;
  counter& failed_;
  counter& unrouted_;
};

/// The bus actor: drains the embedded bus when woken.
caf::behavior bus_dispatcher(caf::event_based_actor* self, std::shared_ptr<embedded_bus> bus);

} // namespace ganglion::core
