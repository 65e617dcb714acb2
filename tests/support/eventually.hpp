#pragma once

// Polling with a deadline, for conditions a test cannot wait on directly.

#include <chrono>
#include <functional>
#include <thread>

namespace ganglion::test {

/// Polls `done` every 5 ms until it holds (true) or `limit` passes (false).
inline bool eventually(const std::function<bool()>& done,
                       std::chrono::steady_clock::duration limit = std::chrono::seconds(10)) {
  auto deadline = std::chrono::steady_clock::now() + limit;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return true;
}

} // namespace ganglion::test
