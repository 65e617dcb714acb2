// engine::in_flight and engine::wait_idle: the work tracker as an embedder or a test sees it.

#include <thread>

#include "engine/engine_impl.hpp"

namespace ganglion::core {

std::int64_t engine::in_flight() const noexcept {
  return impl_->work->pending();
}

bool engine::wait_idle(std::chrono::milliseconds timeout) const {
  // The count never drops to 0 between two stages of one event (each stage adds the next
  // one's units before it lets go of its own), so a single 0 is idle.
  auto deadline = std::chrono::steady_clock::now() + timeout;
  while (impl_->work->pending() > 0) {
    if (std::chrono::steady_clock::now() >= deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds{1});
  }
  return true;
}

} // namespace ganglion::core
