#include "storage/background_sync.hpp"

#include <unistd.h>

#include <fmt/format.h>

namespace ganglion::core {

background_sync::background_sync(std::chrono::milliseconds interval,
                                 std::function<void(double)> observe)
  : interval_(interval), observe_(std::move(observe)), thread_([this] { run(); }) {}

background_sync::~background_sync() {
  {
    std::lock_guard guard{mutex_};
    stop_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void background_sync::follow(int fd) {
  std::lock_guard guard{mutex_};
  fd_.reset(::dup(fd));
}

std::string background_sync::error() const {
  std::lock_guard guard{mutex_};
  return error_;
}

void background_sync::run() {
  std::unique_lock lock{mutex_};
  while (!stop_) {
    wake_.wait_for(lock, interval_, [this] { return stop_; });
    if (stop_ || !fd_ || !error_.empty() || !pending_.exchange(false, std::memory_order_acq_rel))
      continue;
    // Held while syncing, so follow() cannot close the descriptor under it (a roll is rare).
    auto began = std::chrono::steady_clock::now();
    int failed = data_sync(fd_.get());
    observe_(std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count());
    if (failed)
      error_ = fmt::format("fdatasync failed: {}", error_text(failed));
  }
}

} // namespace ganglion::core
