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

  /// The log as JSON: `{"sensor":…, "dependencies":{"<name>":[verdicts, newest first]}}`.
  std::string to_json(const std::string& sensor) const;

private:
  struct ring {
    std::vector<explained_verdict> slots;
    std::size_t next = 0;
  };

  std::size_t per_dependency_;
  mutable std::mutex mutex_;
  std::map<std::string, ring, std::less<>> verdicts_;
};

} // namespace ganglion::core
