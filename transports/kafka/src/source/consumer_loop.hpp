#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "client/client_config.hpp"
#include "ganglion/core/bus.hpp"
#include "ganglion/kafka/kafka_source.hpp"
#include "source/partition_progress.hpp"
#include "source/source_metrics.hpp"
#include "source/token_bucket.hpp"

namespace ganglion::kafka::detail {

/// What a consumer loop reads and how it names its events.
struct consumer_spec {
  std::string event_source;
  std::string event_name;
  std::string url; ///< for the event id
  std::string topic;
  /// Single-partition mode: the partition to assign; nullopt: consumer group mode (subscribe).
  std::optional<std::int32_t> partition;
  bool json_body = false;
  std::map<std::string, std::string> metadata;
  double limit_per_second = 0;
};

/// The bus's answer to one offer, reported from the bus's thread.
struct publish_outcome {
  std::int32_t partition = 0;
  std::int64_t offset = 0;
  std::uint64_t epoch = 0;
  core::publish_status status = core::publish_status::accepted;
  std::string error;
};

/// Outcomes waiting for the loop thread; shared with the bus's callbacks, which may outlive
/// the loop.
struct outcome_box {
  std::mutex mutex;
  std::condition_variable ready;
  std::vector<publish_outcome> items;
  /// The consumer and main queues, woken while the loop waits in a poll; null once it ends.
  rd_kafka_queue_t* wake_consumer = nullptr;
  rd_kafka_queue_t* wake_main = nullptr;
  bool loop_polling = false;

  /// Adds one outcome and wakes the loop.
  void push(publish_outcome outcome);
  /// Wakes the loop's poll (caller holds `mutex`).
  void wake_locked();
  /// Takes every outcome so far.
  std::vector<publish_outcome> take();
};

/// One kafka source at run time: a thread that polls the consumer, turns messages into events,
/// offers them to the bus (paced, at most max_in_flight unanswered), offers refused ones again
/// with backoff, and commits each partition's contiguous accepted prefix. While its backlog is
/// full it serves only the main queue (errors, statistics, commit results) and leaves messages
/// in librdkafka's queue; after pause_after it pauses the partitions.
class consumer_loop {
public:
  /// Takes the consumer handle (made with this loop as client_hooks::user, see make_consumer).
  consumer_loop(consumer_spec spec, std::shared_ptr<core::bus_publisher> bus,
                source_metrics metrics, const source_options& options);
  /// Stops the thread: waits up to stop_grace for answers, commits, closes the consumer.
  ~consumer_loop();

  /// Starts the thread on `consumer` (a consumer handle whose hooks point at this loop).
  void start(handle consumer);

  /// librdkafka's rebalance callback (on the loop thread, inside a poll or the close).
  void on_rebalance(rd_kafka_resp_err_t err, rd_kafka_topic_partition_list_t* partitions);

private:
  /// A message turned into an event, waiting for the bus or for its answer.
  struct pending_event {
    core::event event;
    std::int32_t partition = 0;
    std::int64_t offset = 0;
    std::uint64_t epoch = 0;
  };
  /// A partition this consumer owns now.
  struct owned_partition {
    partition_progress progress;
    std::uint64_t epoch = 0;
  };
  using clock = std::chrono::steady_clock;

  void run();
  void begin();
  void poll(std::chrono::milliseconds timeout);
  void read(rd_kafka_message_t* m);
  void consumer_error(rd_kafka_resp_err_t err, const char* text);
  /// Offers what may go now; returns how long until more may go.
  std::chrono::milliseconds offer();
  void publish(pending_event item);
  void settle_outcomes();
  void refused(pending_event item, const publish_outcome& o);
  void commit(bool sync, bool all);
  void commit_partitions(const rd_kafka_topic_partition_list_t* partitions);
  void flow_control();
  void set_paused(bool paused);
  void forget(std::int32_t partition);
  void shutdown();
  bool owns(std::int32_t partition, std::uint64_t epoch) const;
  /// Once a second: the messages of the owned partitions not read yet, into lag_.
  void measure_lag();

  consumer_spec spec_;
  std::shared_ptr<core::bus_publisher> bus_;
  source_metrics metrics_;
  source_options options_;
  std::string name_; ///< `eventsource <source>/<event>` for log lines

  handle consumer_;
  rd_kafka_queue_t* consumer_queue_ = nullptr;
  rd_kafka_queue_t* main_queue_ = nullptr;
  std::shared_ptr<outcome_box> box_ = std::make_shared<outcome_box>();
  std::thread thread_;
  std::atomic<bool> stopping_{false};

  std::map<std::int32_t, owned_partition> owned_;
  std::uint64_t next_epoch_ = 1;
  std::deque<pending_event> backlog_;
  std::deque<pending_event> retry_;
  std::map<std::pair<std::int32_t, std::int64_t>, pending_event> in_flight_;
  token_bucket pace_;
  bool paused_ = false;
  /// ganglion_source_lag, measured once a second.
  std::shared_ptr<std::atomic<std::int64_t>> lag_ = std::make_shared<std::atomic<std::int64_t>>(0);
  clock::time_point next_lag_{};
  std::optional<clock::time_point> full_since_;
  bool refusing_ = false;
  clock::time_point retry_not_before_{};
  std::chrono::milliseconds backoff_;
  clock::time_point last_commit_{};
  clock::time_point last_bad_body_log_{};
  rd_kafka_resp_err_t last_error_ = RD_KAFKA_RESP_ERR_NO_ERROR;
};

} // namespace ganglion::kafka::detail
