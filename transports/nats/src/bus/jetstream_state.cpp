#include "bus/jetstream_state.hpp"

#include <stdexcept>

#include <spdlog/spdlog.h>

#include "client/connection.hpp"

namespace ganglion::nats {

jetstream_state::jetstream_state(natsConnection* connection, jsCtx* js, const std::string& bucket,
                                 int replicas) {
  auto s = js_KeyValue(&kv_, js, bucket.c_str());
  if (s == NATS_NOT_FOUND) {
    kvConfig config;
    kvConfig_Init(&config);
    config.Bucket = bucket.c_str();
    config.History = 1;
    config.StorageType = js_FileStorage;
    config.Replicas = replicas;
    s = js_CreateKeyValue(&kv_, js, &config);
  }
  if (s != NATS_OK)
    throw std::runtime_error("cannot open the JetStream KV bucket " + bucket + ": "
                             + status_text(s));
  auto payload = natsConnection_GetMaxPayload(connection);
  max_value_ = payload > 4096 ? static_cast<std::size_t>(payload) - 2048 : 1024;
  worker_ = std::thread([this] { run(); });
}

jetstream_state::~jetstream_state() {
  {
    std::lock_guard guard{mutex_};
    stopping_ = true;
  }
  wake_.notify_all();
  worker_.join();
  for (auto& p : queue_)
    p.done("the bus is shutting down");
  kvStore_Destroy(kv_);
}

std::optional<std::string> jetstream_state::load(const std::string& key) {
  kvEntry* entry = nullptr;
  auto s = kvStore_Get(&entry, kv_, key.c_str());
  if (s == NATS_NOT_FOUND)
    return std::nullopt;
  if (s != NATS_OK)
    throw std::runtime_error("cannot read " + key + " from the JetStream KV bucket: "
                             + status_text(s));
  std::string value{static_cast<const char*>(kvEntry_Value(entry)),
                    static_cast<std::size_t>(kvEntry_ValueLen(entry))};
  kvEntry_Destroy(entry);
  return value;
}

void jetstream_state::store(const std::string& key, std::string value, core::store_done done) {
  if (value.size() > max_value_) {
    done("a value of " + std::to_string(value.size()) + " bytes is larger than the state store's "
         + std::to_string(max_value_));
    return;
  }
  {
    std::lock_guard guard{mutex_};
    if (!stopping_) {
      queue_.push_back({key, std::move(value), std::move(done)});
      wake_.notify_one();
      return;
    }
  }
  done("the bus is shutting down");
}

void jetstream_state::flush(std::chrono::milliseconds grace) {
  std::unique_lock lock{mutex_};
  idle_.wait_for(lock, grace, [this] { return queue_.empty() && !busy_; });
}

void jetstream_state::run() {
  std::unique_lock lock{mutex_};
  while (true) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty() && stopping_)
      return;
    auto next = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    natsStatus s;
    if (next.value.empty()) {
      s = kvStore_Delete(kv_, next.key.c_str());
    } else {
      std::uint64_t revision = 0;
      s = kvStore_Put(&revision, kv_, next.key.c_str(), next.value.data(),
                      static_cast<int>(next.value.size()));
    }
    std::string error = s == NATS_OK ? std::string{} : status_text(s);
    if (!error.empty() && !failing_)
      spdlog::warn("JetStream state store: cannot write {}: {} (retried by the next commit)",
                   next.key, error);
    else if (error.empty() && failing_)
      spdlog::info("JetStream state store: writing again");
    failing_ = !error.empty();
    next.done(error);
    lock.lock();
    busy_ = false;
    if (queue_.empty())
      idle_.notify_all();
  }
}

} // namespace ganglion::nats
