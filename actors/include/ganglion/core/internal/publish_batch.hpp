#pragma once

// Not installed: the bus's answers to events a pull source publishes at once (the messages of
// one receive), waited for on the source's own thread before it settles them with its broker,
// and the rounds that offer the refused ones again.

#include <algorithm>
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

/// Offers `events` to `bus` until each is settled (accepted, or dropped by the filter), as a pull
/// source does with the messages of one receive: each round publishes what is left with
/// publish_and_wait and calls `answered(i, status)` for every answer (`i` the event's index in
/// `events`), then, when some were refused, `again(left, delay)`, which waits `delay` (doubling
/// from `first_delay` to `max_delay`) and says whether to offer them again. Returns when every
/// event settled, `stopping()` turned true or `again` said no.
inline void offer_until_settled(
  bus_publisher& bus, std::vector<event> events, const std::function<bool()>& stopping,
  const std::function<void(std::size_t, publish_status)>& answered,
  const std::function<bool(std::size_t, std::chrono::milliseconds)>& again,
  std::chrono::milliseconds first_delay, std::chrono::milliseconds max_delay) {
  std::vector<std::size_t> index(events.size());
  for (std::size_t i = 0; i < index.size(); ++i)
    index[i] = i;
  auto delay = first_delay;
  while (!events.empty()) {
    auto answers = publish_and_wait(bus, events, stopping);
    if (!answers)
      return;
    std::vector<event> refused;
    std::vector<std::size_t> refused_index;
    for (std::size_t k = 0; k < events.size(); ++k) {
      auto status = (*answers)[k];
      answered(index[k], status);
      if (status != publish_status::accepted && status != publish_status::filtered) {
        refused.push_back(std::move(events[k]));
        refused_index.push_back(index[k]);
      }
    }
    events = std::move(refused);
    index = std::move(refused_index);
    if (events.empty() || !again(events.size(), delay))
      return;
    delay = std::min(delay * 2, max_delay);
  }
}

} // namespace ganglion::core
