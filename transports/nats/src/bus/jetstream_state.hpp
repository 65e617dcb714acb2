#pragma once

#include <condition_variable>
#include <deque>
#include <mutex>
#include <string>
#include <thread>

#include <nats/nats.h>

#include "ganglion/core/remote_bus.hpp"

namespace ganglion::nats {

/// core::state_store in a JetStream KV bucket (history 1). Stores run in order on a thread of
/// their own; loads block the caller for a round trip.
class jetstream_state final : public core::state_store {
public:
  /// Binds to (creating when missing) `bucket`; `connection` is borrowed. Throws
  /// std::runtime_error.
  jetstream_state(natsConnection* connection, jsCtx* js, const std::string& bucket,
                  int replicas);
  ~jetstream_state() override;

  std::optional<std::string> load(const std::string& key) override;
  void store(const std::string& key, std::string value, core::store_done done) override;
  std::size_t max_value_bytes() const override { return max_value_; }

  /// Waits up to `grace` for the stores queued so far.
  void flush(std::chrono::milliseconds grace);

private:
  struct pending {
    std::string key;
    std::string value;
    core::store_done done;
  };

  void run();

  kvStore* kv_ = nullptr;
  std::size_t max_value_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable idle_;
  std::deque<pending> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  bool failing_ = false;
  std::thread worker_;
};

} // namespace ganglion::nats
