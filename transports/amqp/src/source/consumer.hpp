#pragma once

// Private: the thread of one amqp source: connects, declares, consumes, offers each message to
// the bus and settles it with the broker by the bus's answer; reconnects after a loss.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "client/connection.hpp"
#include "client/queue_arguments.hpp"
#include "ganglion/amqp/spec.hpp"
#include "ganglion/amqp/transport.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/core/internal/source_counters.hpp"

namespace ganglion::amqp::detail {

/// The bus's answer to one offer.
struct outcome {
  std::uint64_t generation = 0; ///< the connection the delivery came on
  std::uint64_t tag = 0;        ///< its delivery tag
  core::publish_status status = core::publish_status::accepted;
  std::string error;
};

/// Answers waiting for the consumer thread, and the eventfd that wakes it; shared with the
/// bus's callbacks, which may outlive the consumer.
struct outcome_box {
  /// Opens the eventfd.
  outcome_box();
  /// Closes it (the last callback holding the box is gone).
  ~outcome_box();
  /// Adds one answer and wakes the thread.
  void push(outcome o);
  /// Takes every answer so far.
  std::vector<outcome> take();
  /// Wakes the thread's poll.
  void wake() const;
  /// Clears the wake-up.
  void drain() const;

  int event_fd = -1;
  std::mutex mutex;
  std::vector<outcome> items;
};

/// One amqp source at run time (see make_source_factory).
class consumer {
public:
  /// A consumer for the event of `ctx` (not started).
  consumer(const core::source_context& ctx, const event_spec& spec, connection_settings settings,
           const options& opts);
  /// Stops reading, acknowledges what the bus accepts within stop_grace, closes (the broker
  /// requeues the rest).
  ~consumer();

  /// Starts the thread.
  void start();

  /// `amqp source <eventsource>/<event>`, the log prefix.
  const std::string& name() const noexcept { return name_; }

private:
  using clock = std::chrono::steady_clock;

  void run();
  void session(bool& made);
  std::string declare(connection& conn);
  void read(connection& conn);
  /// Sets ganglion_source_lag to the messages ready in `queue` (a passive queue.declare).
  void measure_lag(connection& conn, const std::string& queue);
  void handle(connection& conn, amqp_envelope_t& envelope);
  void settle(connection& conn);
  void requeue(connection& conn);
  void finish(connection& conn);
  /// Waits until `fd` (when >= 0) is readable, the box wakes it, or `timeout` passes.
  void wait(int fd, std::chrono::milliseconds timeout) const;

  core::source_context ctx_;
  event_spec spec_;
  connection_settings settings_;
  options options_;
  std::string name_;
  /// received: the deliveries. `invalid_json` is rejected to the queue's dead-letter exchange,
  /// if any; one the bus refused is requeued, or lost with autoAck.
  core::message_source_counters metrics_;
  std::shared_ptr<outcome_box> box_ = std::make_shared<outcome_box>();
  /// The messages ready in the queue at the last measure (ganglion_source_lag).
  std::shared_ptr<std::atomic<std::int64_t>> lag_ = std::make_shared<std::atomic<std::int64_t>>(0);
  std::atomic<bool> stopping_{false};
  std::thread thread_;

  std::uint64_t generation_ = 0;
  bool ever_connected_ = false;
  std::set<std::uint64_t> in_flight_;  ///< delivery tags offered to the bus, not answered
  std::vector<std::uint64_t> to_nack_; ///< refused or held back, handed back at resume_at_
  bool refusing_ = false;
  clock::time_point resume_at_{};
  std::chrono::milliseconds refused_delay_;
  std::uint64_t refused_count_ = 0;
  core::log_throttle invalid_log_;
  core::log_throttle connect_log_;
  core::log_throttle dropped_log_;
};

} // namespace ganglion::amqp::detail
