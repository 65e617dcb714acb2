#pragma once

#include <map>
#include <optional>
#include <string>

#include "ganglion/dsl/go/go_time.hpp"

namespace ganglion::calendar::detail {

/// Argo's CalendarEventData as json.Marshal writes it: `{"eventTime":…,"metadata":{…}}`, the
/// time as Go's Time.String() in `time_zone` (without the monotonic suffix), `metadata` left
/// out when empty. nullopt when the zone does not load.
std::optional<std::string> calendar_event_data(dsl::go_time_point tick,
                                               const std::string& time_zone,
                                               const std::map<std::string, std::string>& metadata);

/// The `eventTime` of what calendar_event_data wrote (or Argo stored in its ConfigMap); nullopt
/// when `data` holds none that reads.
std::optional<dsl::go_time_point> event_time_of(const std::string& data);

} // namespace ganglion::calendar::detail
