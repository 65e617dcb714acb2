#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <thread>

#include "client/client_config.hpp"
#include "ganglion/core/trigger.hpp"
#include "trigger/message_spec.hpp"

namespace ganglion::kafka::detail {

/// One kafka trigger's producer: sends without blocking and reports each message's delivery
/// (the broker's acknowledgement, or the failure) to its `done`, from a thread that serves the
/// producer's queue.
class trigger_producer {
public:
  /// Creates the producer from `cfg` (its delivery reports come here). Throws config_error.
  explicit trigger_producer(client_config cfg);
  /// Flushes for up to `drain`, then fails what is still undelivered.
  ~trigger_producer();

  /// Queues `m`; `done` runs once: `ok` with `detail` `<topic>[<partition>]@<offset>` when the
  /// brokers acknowledged it, else with the error (now, when librdkafka refuses it at once).
  void send(const message& m, core::trigger_done done);

private:
  static void on_delivery(rd_kafka_t* rk, const rd_kafka_message_t* m, void* opaque);

  /// One message waiting for its delivery report.
  struct pending {
    core::trigger_done done;
    std::string topic;
  };

  void finish(pending* p, core::trigger_outcome outcome);

  handle producer_;
  std::mutex mutex_;
  std::set<pending*> pending_;
  std::atomic<bool> stopping_{false};
  std::thread poller_;
};

} // namespace ganglion::kafka::detail
