#pragma once

// Not installed: exposes simdjson through event_view.

#include <memory>
#include <string>

#include "ganglion/dsl/filter/event_view.hpp"
#include "ganglion/dsl/filter/filter_eval.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::dsl {

/// A time-of-day window (`filters.time`) compiled at load time: `HH:MM:SS` bounds in an IANA
/// zone (UTC by default).
class compiled_time_filter {
public:
  /// Parses start/stop and loads the zone; throws compile_error for a bad bound or an unknown
  /// zone.
  explicit compiled_time_filter(const time_filter& spec);
  ~compiled_time_filter();
  compiled_time_filter(compiled_time_filter&&) noexcept;
  compiled_time_filter& operator=(compiled_time_filter&&) noexcept;

  /// Argo's filterTime on the CloudEvent `time` (RFC 3339) seen in the filter's zone, with the
  /// bounds placed on that local date: when start < stop it passes for start <= t < stop,
  /// otherwise (a window over midnight) for t >= start or t < stop. An event time that is not
  /// RFC 3339 is an error.
  filter_outcome evaluate(const event_view& event) const;

  /// A short description for explanations, e.g. `time 09:00:00-17:00:00 America/New_York`.
  std::string describe() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::dsl
