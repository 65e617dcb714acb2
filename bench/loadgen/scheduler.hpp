#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "driver.hpp"
#include "seq_table.hpp"
#include "thread_stats.hpp"

namespace ganglion::loadgen {

/// When one thread sends: closed loop (`rate` 0) or this thread's share of an open loop.
struct schedule {
  std::int64_t start_ns = 0;      ///< sending begins
  std::int64_t warmup_end_ns = 0; ///< requests starting earlier are not counted
  std::int64_t end_ns = 0;        ///< no request is scheduled at or after this
  std::int64_t last_start_ns = 0; ///< open loop: backlogged requests may still start until this
  double rate = 0;                ///< this thread's requests per second; 0: closed loop
  double offset_ns = 0;           ///< open loop: shift of this thread's first slot
};

/// Decides when each request of one io thread starts and on which connection.
///
/// Closed loop: every connection sends its next request as soon as its reply arrived; latency
/// counts from the write. Open loop: request k is due at start + offset + k / rate. A due request
/// goes out on an idle connection, or waits in the backlog until one frees up, its latency still
/// counting from the scheduled time (no coordinated omission). The backlog is just the range of
/// due slot numbers not yet sent, so it needs no memory. Requests still in the backlog at the
/// end go out until `last_start_ns`; what is left then counts as unsent.
class scheduler final : public driver_listener {
public:
  /// Sends through `d` (started by start()), numbering requests from `next_seq` (shared across
  /// threads), recording into `stats` and, when not null, `table`.
  scheduler(boost::asio::io_context& io, driver& d, thread_stats& stats,
            std::atomic<std::uint64_t>& next_seq, seq_table* table);

  /// Starts the driver's connections; call on the io thread.
  void start();
  /// Starts sending by `plan`; call on the io thread.
  void begin(const schedule& plan);
  /// Connections that reported ready at least once (readable from any thread).
  std::size_t connected() const noexcept { return connected_.load(std::memory_order_relaxed); }
  /// True once sending ended and no request is in flight (readable from any thread).
  bool finished() const noexcept { return finished_.load(std::memory_order_acquire); }
  /// Records the scheduled requests never sent; call once the io thread has ended.
  void settle() noexcept;

  void on_ready(std::size_t slot) override;
  void on_done(std::size_t slot, const ticket& t, outcome result, std::int64_t done_ns) override;
  void on_connect_error() override;

private:
  bool open_loop() const noexcept { return plan_.rate > 0; }
  std::int64_t due_time(std::uint64_t k) const noexcept;
  std::uint64_t due_count(std::int64_t now) const noexcept;
  void issue(std::size_t slot, std::int64_t start_ns);
  void tick();
  void check_finished();

  driver& driver_;
  thread_stats& stats_;
  std::atomic<std::uint64_t>& next_seq_;
  seq_table* table_;
  boost::asio::steady_timer timer_;
  boost::asio::steady_timer end_timer_;
  schedule plan_;
  bool begun_ = false;
  std::vector<std::size_t> idle_;
  std::vector<bool> seen_;
  std::atomic<std::size_t> connected_{0};
  std::atomic<bool> finished_{false};
  std::uint64_t in_flight_ = 0;
  std::uint64_t next_slot_ = 0;  ///< open loop: the first scheduled slot not yet sent
  std::uint64_t slot_total_ = 0; ///< open loop: slots scheduled before end_ns
};

} // namespace ganglion::loadgen
