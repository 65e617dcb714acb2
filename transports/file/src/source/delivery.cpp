#include "source/delivery.hpp"

#include <algorithm>

#include <spdlog/spdlog.h>

namespace ganglion::file {

void stop_flag::stop() {
  {
    std::lock_guard guard{mutex_};
    stopped_ = true;
  }
  changed_.notify_all();
}

bool stop_flag::stopped() const {
  std::lock_guard guard{mutex_};
  return stopped_;
}

bool stop_flag::wait(std::chrono::steady_clock::duration duration) const {
  std::unique_lock lock{mutex_};
  return changed_.wait_for(lock, duration, [this] { return stopped_; });
}

delivery::delivery(std::string name, std::shared_ptr<core::bus_publisher> bus,
                   source_metrics& metrics, const stop_flag& stop)
  : name_(std::move(name)), bus_(std::move(bus)), metrics_(metrics), stop_(stop) {}

namespace {

/// The outcome of one publish, shared with its callback (which may come after we gave up).
struct outcome {
  std::mutex mutex;
  std::condition_variable changed;
  std::optional<core::publish_status> status;
  std::string error;
};

} // namespace

std::optional<core::publish_status> delivery::publish_once(const core::event& event,
                                                           std::string& error) {
  auto result = std::make_shared<outcome>();
  auto copy = event;
  bus_->publish(std::move(copy), [result](core::publish_status status, const std::string& e) {
    {
      std::lock_guard guard{result->mutex};
      result->status = status;
      result->error = e;
    }
    result->changed.notify_all();
  });
  std::unique_lock lock{result->mutex};
  // The bus answers every publish; a stopping source waits a while for it, no longer.
  while (!result->status) {
    result->changed.wait_for(lock, std::chrono::milliseconds(100));
    if (!result->status && stop_.stopped()
        && !result->changed.wait_for(lock, std::chrono::seconds(5),
                                     [&] { return result->status.has_value(); }))
      return std::nullopt;
  }
  error = result->error;
  return result->status;
}

bool delivery::deliver(const core::event& event) {
  auto pause = std::chrono::milliseconds(100);
  while (true) {
    std::string error;
    auto status = publish_once(event, error);
    if (!status)
      return false;
    switch (*status) {
      case core::publish_status::accepted:
        metrics_.accepted();
        return true;
      case core::publish_status::filtered:
        return true; // counted by the core's filter
      case core::publish_status::stopped:
        metrics_.rejected(core::to_string(*status));
        return false;
      case core::publish_status::saturated:
      case core::publish_status::failed:
        break;
    }
    metrics_.rejected(core::to_string(*status));
    std::uint64_t held_back = 0;
    if (refused_log_.allow(held_back))
      spdlog::warn("{}: the bus refused an event ({}{}); offering it again{}", name_,
                   core::to_string(*status), error.empty() ? "" : ": " + error,
                   core::held_back_note(held_back, "refusals"));
    if (stop_.wait(pause))
      return false;
    pause = std::min(pause * 2, std::chrono::milliseconds(5000));
  }
}

} // namespace ganglion::file
