#pragma once

// Not installed: the bus's answers to events a pull source publishes at once (the messages of
// one receive), waited for on the source's own thread before it settles them with its broker.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "ganglion/core/bus.hpp"

namespace ganglion::core {

/// Publishes a copy of each of `events` on `bus`, in order, and waits for every answer; the
/// answers in the same order, or nullopt when `stopping()` turned true first (checked every
/// 50 ms; the answers still to come are then dropped).
inline std::optional<std::vector<publish_status>>
publish_and_wait(bus_publisher& bus, const std::vector<event>& events,
                 const std::function<bool()>& stopping) {
  struct answers {
    std::mutex mutex;
    std::condition_variable done;
    std::vector<publish_status> status;
    std::size_t remaining = 0;
  };
  auto state = std::make_shared<answers>();
  state->status.assign(events.size(), publish_status::stopped);
  state->remaining = events.size();
  for (std::size_t i = 0; i < events.size(); ++i)
    bus.publish(event(events[i]), [state, i](publish_status status, const std::string&) {
      {
        std::lock_guard guard{state->mutex};
        state->status[i] = status;
        --state->remaining;
      }
      state->done.notify_all();
    });
  std::unique_lock lock{state->mutex};
  while (!state->done.wait_for(lock, std::chrono::milliseconds(50),
                               [&] { return state->remaining == 0; }))
    if (stopping && stopping())
      return std::nullopt;
  return state->status;
}

} // namespace ganglion::core
