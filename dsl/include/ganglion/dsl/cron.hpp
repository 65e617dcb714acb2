#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ganglion::dsl {

/// A cron schedule with the syntax of robfig/cron v3 as Argo Events configures it: five fields
/// (minute hour day-of-month month day-of-week) with `*`, `?`, lists, ranges, steps and the names
/// JAN–DEC and SUN–SAT, optionally prefixed by `TZ=<zone>` or `CRON_TZ=<zone>`. Descriptors
/// (`@hourly`, `@every 90s` …) are accepted only when asked for: Argo's parser rejects them.
class cron_schedule {
public:
  /// Compiles `text`; throws compile_error with the offset of the offending field.
  static cron_schedule parse(std::string_view text, bool accept_descriptors = false);

  /// The source text.
  const std::string& text() const noexcept { return text_; }

  /// The zone named by a `TZ=`/`CRON_TZ=` prefix, empty when there is none.
  const std::string& location() const noexcept { return location_; }

  /// The delay of an `@every` schedule (whole seconds, at least 1s); nullopt for other schedules.
  std::optional<std::chrono::seconds> every() const noexcept { return every_; }

  /// The first time strictly after `after` (whole seconds, UTC wall clock) that the schedule
  /// matches; nullopt when nothing matches within five years (e.g. `0 0 30 2 *`).
  std::optional<std::chrono::sys_seconds> next(std::chrono::sys_seconds after) const;

  /// The first time strictly after `after` that the schedule matches on the wall clock of
  /// `time_zone` (an IANA name; empty or "UTC": UTC), as robfig's SpecSchedule.Next walks it:
  /// a time a spring-forward skips does not match, an hour a fall-back repeats matches twice.
  /// nullopt when nothing matches within five years or the zone does not load.
  std::optional<std::chrono::sys_seconds> next(std::chrono::sys_seconds after,
                                               std::string_view time_zone) const;

private:
  std::string text_;
  std::string location_;
  std::optional<std::chrono::seconds> every_;
  std::uint64_t second_ = 1;
  std::uint64_t minute_ = 0;
  std::uint64_t hour_ = 0;
  std::uint64_t dom_ = 0;
  std::uint64_t month_ = 0;
  std::uint64_t dow_ = 0;
};

} // namespace ganglion::dsl
