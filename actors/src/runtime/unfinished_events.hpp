#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "ganglion/core/event.hpp"

namespace ganglion::core {

/// Events a trigger gave up on without finishing them (a failure with no dead-letter trigger,
/// or the trigger stopped mid-execution) on the durable bus: kept so they stay unfinished
/// until the next start, which delivers them again. Thread-safe: trigger actors add from their
/// threads.
class unfinished_events {
public:
  /// Keeps `events` unfinished.
  void keep(const std::map<std::string, event_ptr>& events) {
    std::lock_guard guard{mutex_};
    for (const auto& [dependency, e] : events)
      kept_.push_back(e);
  }

private:
  std::mutex mutex_;
  std::vector<event_ptr> kept_;
};

} // namespace ganglion::core
