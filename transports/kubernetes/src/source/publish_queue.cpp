#include "source/publish_queue.hpp"

#include <vector>

#include <spdlog/spdlog.h>

namespace ganglion::kubernetes::detail {

/// The outcomes of one batch, shared with the bus's callbacks.
struct publish_queue::outcome_state {
  std::mutex mutex;
  std::condition_variable done;
  std::vector<core::publish_status> statuses;
  std::size_t remaining = 0;
  std::string error;
};

publish_queue::publish_queue(std::shared_ptr<core::bus_publisher> bus, std::string name,
                             const core::source_counters& metrics, publish_queue_options options)
  : bus_(std::move(bus)), name_(std::move(name)), metrics_(metrics), options_(options),
    thread_([this] { run(); }) {}

publish_queue::~publish_queue() {
  stop();
  thread_.join();
  if (!queue_.empty())
    spdlog::warn("{}: stopped with {} event(s) not yet accepted by the bus", name_,
                 queue_.size());
}

bool publish_queue::push(core::event e) {
  std::unique_lock lock{mutex_};
  changed_.wait(lock, [this] { return stopping_ || queue_.size() < options_.capacity; });
  if (stopping_)
    return false;
  queue_.push_back(std::move(e));
  changed_.notify_all();
  return true;
}

void publish_queue::stop() {
  {
    std::lock_guard guard{mutex_};
    stopping_ = true;
  }
  changed_.notify_all();
}

std::size_t publish_queue::pending() const {
  std::lock_guard guard{mutex_};
  return queue_.size() + in_flight_;
}

bool publish_queue::offer(std::deque<core::event>& batch) {
  auto state = std::make_shared<outcome_state>();
  state->statuses.resize(batch.size(), core::publish_status::accepted);
  state->remaining = batch.size();
  for (std::size_t i = 0; i < batch.size(); ++i) {
    core::event copy = batch[i];
    bus_->publish(std::move(copy), [state, i](core::publish_status status,
                                              const std::string& error) {
      std::lock_guard guard{state->mutex};
      state->statuses[i] = status;
      if (!error.empty())
        state->error = error;
      if (--state->remaining == 0)
        state->done.notify_all();
    });
  }
  {
    // The bus calls back exactly once per event, also when it stops.
    std::unique_lock lock{state->mutex};
    state->done.wait(lock, [&] { return state->remaining == 0; });
  }
  std::deque<core::event> refused;
  bool stopped = false;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    auto status = state->statuses[i];
    if (status == core::publish_status::accepted) {
      metrics_.accepted();
      continue;
    }
    if (status == core::publish_status::filtered)
      continue;
    metrics_.rejected(core::to_string(status));
    stopped = stopped || status == core::publish_status::stopped;
    refused.push_back(std::move(batch[i]));
  }
  if (!refused.empty() && !stopped)
    spdlog::warn("{}: the bus refused {} event(s) ({}); offering them again", name_,
                 refused.size(), state->error.empty() ? "saturated" : state->error);
  batch = std::move(refused);
  return !stopped;
}

void publish_queue::run() {
  std::deque<core::event> batch;
  auto retry = options_.min_retry;
  std::unique_lock lock{mutex_};
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_)
      break;
    while (!queue_.empty() && batch.size() < options_.window) {
      batch.push_back(std::move(queue_.front()));
      queue_.pop_front();
    }
    in_flight_ = batch.size();
    changed_.notify_all();
    lock.unlock();
    bool running = offer(batch);
    lock.lock();
    in_flight_ = 0;
    if (!running) {
      stopping_ = true;
      changed_.notify_all();
    }
    if (batch.empty()) {
      retry = options_.min_retry;
      continue;
    }
    // Refused events go back in front, in their order, and wait out the backoff.
    for (auto it = batch.rbegin(); it != batch.rend(); ++it)
      queue_.push_front(std::move(*it));
    batch.clear();
    changed_.wait_for(lock, retry, [this] { return stopping_; });
    retry = std::min(retry * 2, options_.max_retry);
  }
}

} // namespace ganglion::kubernetes::detail
