#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <utility>
#include <vector>

#include <nats/nats.h>

#include "ganglion/core/remote_bus.hpp"

namespace ganglion::nats {

/// How a sensor's consumers are made.
struct consumer_settings {
  std::string stream;
  std::int64_t ack_wait_ns = 5'000'000'000;
  std::int64_t max_ack_pending = 8192;
  int fetch_batch = 512;
};

/// The name of the durable consumer of `sensor` for events of (source, event): the sensor's
/// name made safe (`.`, `*`, `>` and spaces become `_`), `_`, and 16 hex digits of a hash of
/// all three.
std::string consumer_name(const std::string& sensor, const std::string& source,
                          const std::string& event);

/// The prefix every consumer name of `sensor` starts with.
std::string consumer_prefix(const std::string& sensor);

/// Creates the durable consumers of `sensor` on `sources` that do not exist yet (DeliverPolicy
/// New). Throws std::runtime_error.
void ensure_consumers(jsCtx* js, const consumer_settings& settings, const std::string& sensor,
                      const std::vector<std::pair<std::string, std::string>>& sources);

/// A sensor's subscription: one durable pull consumer per (eventSourceName, eventName) with
/// explicit acks, created on first use with DeliverPolicy New, each fetched in batches by a
/// thread of its own. Delivered messages are kept until acknowledged.
class jetstream_subscription final : public core::remote_subscription {
public:
  /// Creates or binds the consumers and starts fetching. Throws std::runtime_error.
  jetstream_subscription(jsCtx* js, const consumer_settings& settings, const std::string& sensor,
                         const std::vector<std::pair<std::string, std::string>>& sources,
                         core::delivery_handler handler);
  ~jetstream_subscription() override;

  void acknowledge(const std::vector<std::uint64_t>& sequences) override;

private:
  struct consumer {
    std::string name;
    natsSubscription* sub = nullptr;
    std::thread fetcher;
  };

  void fetch_loop(consumer& c);

  std::string sensor_;
  int batch_;
  core::delivery_handler handler_;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  /// Delivered, not yet acknowledged: stream sequence → message.
  std::unordered_map<std::uint64_t, natsMsg*> unacked_;
  std::vector<std::unique_ptr<consumer>> consumers_;
};

} // namespace ganglion::nats
