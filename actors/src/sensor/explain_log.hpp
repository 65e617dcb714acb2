#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace ganglion::core {

/// One recorded decision of a dependency about an event.
struct explained_verdict {
  std::chrono::system_clock::time_point time; ///< when it was decided
  std::string event_id;
  bool pass = false;
  std::string kind;   ///< the filter kind that rejected it
  std::string reason; ///< why, e.g. `data filter: data filter error (path 'x' does not exist)`
};

/// A trigger whose condition holds events for some of its dependencies and waits for others.
struct waiting_trigger {
  /// An event held for one dependency of the condition.
  struct held {
    std::string dependency;
    std::string event_id;
    std::string since; ///< the held event's time (RFC 3339)
  };
  std::string trigger;
  std::string condition;
  std::vector<held> holds;
  /// The condition's dependencies that hold no event yet.
  std::vector<std::string> waits_for;
};

/// The most recent verdicts of every dependency of one sensor, for /v1/explain. Bounded: keeps
/// `per_dependency` verdicts each in a ring whose slots are reused, so recording allocates
/// nothing once the ring is full. Written by the sensor actor, read by the admin thread; a
/// write that would wait for a reader is skipped (sampling under contention).
class explain_log {
public:
  explicit explain_log(std::size_t per_dependency = 20) : per_dependency_(per_dependency) {}

  /// Records a verdict unless a reader holds the log right now.
  void record(std::string_view dependency, std::chrono::system_clock::time_point time,
              std::string_view event_id, bool pass, std::string_view kind,
              std::string_view reason);

  /// Names every dependency of the sensor (listed with no verdicts until one is recorded),
  /// with why a dependency can get no event (`unfed`: dependency → reason).
  void set_dependencies(std::vector<std::string> names, std::map<std::string, std::string> unfed);

  /// Replaces the triggers that wait for the rest of their condition (the sensor's join state
  /// after its latest change). Blocks briefly for a reader: a stale state would mislead.
  void set_waiting(std::vector<waiting_trigger> waiting);

  /// The log as JSON: `{"sensor":…, "dependencies":{"<name>":[verdicts, newest first]},
  /// "unfed":{"<name>":"<why>"}, "waiting":{"<trigger>":{"condition", "holds", "waitsFor"}}}`.
  std::string to_json(const std::string& sensor) const;

private:
  struct ring {
    std::vector<explained_verdict> slots;
    std::size_t next = 0;
  };

  std::size_t per_dependency_;
  mutable std::mutex mutex_;
  std::map<std::string, ring, std::less<>> verdicts_;
  mutable std::mutex state_mutex_;
  std::vector<std::string> dependencies_;
  std::map<std::string, std::string> unfed_;
  std::vector<waiting_trigger> waiting_;
};

} // namespace ganglion::core
