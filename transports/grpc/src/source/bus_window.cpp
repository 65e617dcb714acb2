#include "source/bus_window.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

namespace ganglion::grpc::detail {

namespace {

constexpr std::chrono::milliseconds first_retry{10};
constexpr std::chrono::milliseconds last_retry{1000};

} // namespace

bus_window::bus_window(std::shared_ptr<core::bus_publisher> bus, std::size_t limit,
                       source_metrics metrics, std::string name)
  : bus_(std::move(bus)), limit_(std::max<std::size_t>(limit, 1)), metrics_(std::move(metrics)),
    name_(std::move(name)) {}

bool bus_window::offer(core::event e) {
  std::unique_lock lock{mutex_};
  auto backoff = first_retry;
  for (;;) {
    if (stopping_) {
      metrics_.rejected("stopped");
      return false;
    }
    if (!refused_.empty()) {
      // Refused events go again one at a time, once nothing else is in flight.
      if (in_flight_ > 0) {
        changed_.wait(lock);
        continue;
      }
      if (changed_.wait_for(lock, backoff, [this] { return stopping_; }))
        continue;
      auto again = std::move(refused_.front());
      refused_.pop_front();
      ++in_flight_;
      lock.unlock();
      publish(std::move(again));
      lock.lock();
      backoff = std::min(backoff * 2, last_retry);
      continue;
    }
    if (in_flight_ < limit_) {
      ++in_flight_;
      lock.unlock();
      publish(std::move(e));
      return true;
    }
    changed_.wait(lock);
  }
}

void bus_window::publish(core::event e) {
  auto copy = std::make_shared<core::event>(e);
  bus_->publish(std::move(e), [self = shared_from_this(), copy = std::move(copy)](
                                core::publish_status status, const std::string& error) mutable {
    self->settle(status, error, std::move(copy));
  });
}

void bus_window::settle(core::publish_status status, const std::string& error,
                        std::shared_ptr<core::event> copy) {
  using core::publish_status;
  if (status == publish_status::accepted)
    metrics_.accepted();
  else if (status == publish_status::stopped)
    metrics_.rejected("stopped");
  bool refused = status == publish_status::saturated || status == publish_status::failed;
  {
    std::lock_guard guard{mutex_};
    --in_flight_;
    if (refused)
      refused_.push_back(std::move(*copy));
  }
  changed_.notify_all();
  std::uint64_t held_back = 0;
  if (refused && refusal_log_.allow(held_back))
    spdlog::warn("{}: the bus refused an event ({}{}); the stream is held until it accepts "
                 "again{}",
                 name_, core::to_string(status), error.empty() ? "" : ": " + error,
                 core::held_back_note(held_back, "refusals"));
}

void bus_window::stop() {
  std::size_t dropped = 0;
  {
    std::lock_guard guard{mutex_};
    stopping_ = true;
    dropped = refused_.size();
    refused_.clear();
  }
  changed_.notify_all();
  if (dropped > 0) {
    metrics_.rejected("stopped", dropped);
    spdlog::warn("{}: {} event(s) the bus had refused were dropped on stop", name_, dropped);
  }
}

} // namespace ganglion::grpc::detail
