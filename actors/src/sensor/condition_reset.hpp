#pragma once

#include <chrono>
#include <optional>
#include <string>

#include <cctz/time_zone.h>

#include "ganglion/dsl/cron.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::core {

/// One `conditionsReset.byTime` entry: a 5-field cron evaluated in an IANA time zone.
class condition_reset_clock {
public:
  /// Compiles the cron and loads the zone (UTC when empty); throws std::runtime_error.
  explicit condition_reset_clock(const dsl::conditions_reset& spec);

  /// The next reset strictly after `now`; nullopt when the schedule never matches again.
  std::optional<std::chrono::system_clock::time_point>
  next(std::chrono::system_clock::time_point now) const;

private:
  dsl::cron_schedule schedule_;
  cctz::time_zone zone_;
};

} // namespace ganglion::core
