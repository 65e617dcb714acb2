#pragma once

// The calendar kind's model: `spec.calendar.<event>` of an EventSource, as its spec step reads it.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/kind_spec.hpp"

namespace ganglion::calendar {

/// `persistence`: where the last tick is kept and whether missed ticks fire on start.
struct persistence_spec {
  bool catchup = false;         ///< `catchup.enabled`
  std::string catchup_max;      ///< `catchup.maxDuration` (a Go duration; empty: no bound)
  std::string config_map;       ///< `configMap.name`
  bool create_if_not_exist = false; ///< `configMap.createIfNotExist`
};

/// `spec.calendar.<event>`: a tick on a cron schedule or at an interval.
struct event_spec {
  std::string schedule;                     ///< 5-field cron; wins over `interval`
  std::string interval;                     ///< a Go duration
  std::vector<std::string> exclusion_dates; ///< `EXDATE:` entries, as written
  std::string timezone;                     ///< IANA name; empty: UTC
  std::map<std::string, std::string> metadata;
  std::optional<persistence_spec> persistence;
};

/// The spec step of the calendar source (reads and checks `spec.calendar.<event>`).
dsl::kind_spec source_spec_step();

} // namespace ganglion::calendar
