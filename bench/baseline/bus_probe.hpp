#pragma once
// What every mode of ganglion-bus-baseline shares: stamped event bodies, the tally of what came
// back (latencies, missing, duplicates) and the JSON report.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace bus_bench {

/// One run's settings, from the command line.
struct settings {
  std::string url;                 ///< NATS server URL or Kafka bootstrap list
  std::int64_t count = 100000;     ///< events to send
  std::size_t size = 256;          ///< bytes per event body
  std::int64_t window = 0;         ///< events sent but not received at most (0: no limit)
  std::string in = "in";           ///< pipelines: where the generator sends
  std::string out = "out";         ///< pipelines: where the generator listens
  std::string topic = "raw";       ///< raw Kafka: the topic (raw JetStream: the stream's name)
  std::chrono::milliseconds idle{10000};    ///< give up when nothing arrived for this long
  std::chrono::milliseconds warmup{90000};  ///< pipelines: how long the first event may take
};

/// CLOCK_MONOTONIC in nanoseconds (the same clock in every thread of the process).
std::int64_t now_ns();

/// The body of event `seq`: `{"seq":N,"ts":"<now_ns>","pad":"…"}`, padded to `size` bytes when
/// larger than its fields. A negative seq marks a warm-up event.
std::string make_body(std::int64_t seq, std::size_t size);

/// The seq and send stamp found in a payload (`"seq":N` and `"ts":T`, either quoted or not).
struct stamp {
  std::int64_t seq;
  std::int64_t ts;
};

/// The stamp of a payload; nullopt when it carries none.
std::optional<stamp> read_stamp(std::string_view payload);

/// What came back of `count` events: latency per event, duplicates, payloads without a stamp.
/// arrived() may run on any thread; the waits on another.
class tally {
public:
  explicit tally(std::int64_t count);

  /// Marks the first send: the start of the measured window.
  void start();
  /// Counts one received payload.
  void arrived(std::string_view payload);
  /// Measured events received so far (duplicates and warm-up events not counted).
  std::int64_t received() const;
  /// Whether a warm-up event came back.
  bool warm() const;
  /// Waits until a warm-up event came back or `timeout` passed; true when one did.
  bool wait_warm(std::chrono::milliseconds timeout);
  /// Waits until fewer than `window` of the `sent` events are outstanding; false when nothing
  /// arrived for `idle` (events were lost).
  bool wait_room(std::int64_t sent, std::int64_t window, std::chrono::milliseconds idle);
  /// Waits until every event arrived; false when nothing arrived for `idle`.
  bool wait_all(std::chrono::milliseconds idle);
  /// The JSON report: events, seconds, events_per_s, p50/p90/p99/max_ms, missing, duplicates.
  std::string report(std::string_view mode, std::int64_t send_errors) const;

private:
  bool wait_for(std::int64_t target, std::chrono::milliseconds idle);

  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::int64_t count_;
  std::vector<bool> seen_;
  std::vector<std::int64_t> latencies_ns_;
  std::int64_t received_ = 0;
  std::int64_t duplicates_ = 0;
  std::int64_t unstamped_ = 0;
  bool warm_ = false;
  std::int64_t started_ns_ = 0;
  std::int64_t last_ns_ = 0;
};

/// Calls `send` (one warm-up event) every 250 ms until one came back on `where` — the consumer
/// is positioned and whatever runs in between is ready — then lets the stragglers arrive.
/// Throws when none came back within `s.warmup`.
void warm_up(tally& t, const settings& s, const std::string& where,
             const std::function<void()>& send);

/// raw JetStream: js_PublishAsync (MaxPending 4096) + a durable pull consumer on another thread.
int run_jetstream(const settings& s);
/// core NATS pipeline: publish to `in`, receive on `out` (ganglion in between).
int run_nats_pipeline(const settings& s);
/// raw Kafka: idempotent producer + a consumer assigned to the topic (no group join).
int run_kafka(const settings& s);
/// Kafka pipeline: produce to `in`, consume `out` (ganglion in between).
int run_kafka_pipeline(const settings& s);

} // namespace bus_bench
