// Time filters with the semantics of Argo's filterTime (pkg/sensors/dependencies/filter.go,
// pkg/shared/util/time.go), time zones from cctz.

#include <chrono>
#include <optional>

#include <cctz/civil_time.h>
#include <cctz/time_zone.h>
#include <fmt/format.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/filter/time_filter.hpp"

namespace ganglion::dsl {

namespace {

using seconds_point = cctz::time_point<cctz::seconds>;

/// A time of day as Go's time.Parse("15:04:05") reads it: 1–2 digit hour, 2 digit minutes and
/// seconds.
struct time_of_day {
  int hour = 0, minute = 0, second = 0;
};

std::optional<time_of_day> parse_time_of_day(std::string_view text) {
  auto digits = [&](std::size_t& pos, std::size_t min, std::size_t max) -> std::optional<int> {
    int v = 0;
    std::size_t n = 0;
    while (pos < text.size() && n < max && text[pos] >= '0' && text[pos] <= '9') {
      v = v * 10 + (text[pos++] - '0');
      ++n;
    }
    if (n < min)
      return std::nullopt;
    return v;
  };
  std::size_t pos = 0;
  auto h = digits(pos, 1, 2);
  if (!h || pos >= text.size() || text[pos++] != ':')
    return std::nullopt;
  auto m = digits(pos, 2, 2);
  if (!m || pos >= text.size() || text[pos++] != ':')
    return std::nullopt;
  auto s = digits(pos, 2, 2);
  if (!s || pos != text.size() || *h > 23 || *m > 59 || *s > 59)
    return std::nullopt;
  return time_of_day{*h, *m, *s};
}

} // namespace

struct compiled_time_filter::impl {
  time_filter spec;
  time_of_day start, stop;
  cctz::time_zone zone;
};

compiled_time_filter::compiled_time_filter(const time_filter& spec)
  : impl_(std::make_unique<impl>()) {
  auto& f = *impl_;
  f.spec = spec;
  auto bound = [&](const std::string& text, std::string_view which) {
    auto t = parse_time_of_day(text);
    if (!t)
      throw compile_error(
        fmt::format("time filter {} '{}' is not a time of day (HH:MM:SS)", which, text), 0);
    return *t;
  };
  f.start = bound(spec.start, "start");
  f.stop = bound(spec.stop, "stop");
  const std::string zone_name = spec.timezone.empty() ? "UTC" : spec.timezone;
  if (!cctz::load_time_zone(zone_name, &f.zone))
    throw compile_error(fmt::format("time filter timezone '{}' is not a known zone", zone_name), 0);
}

compiled_time_filter::~compiled_time_filter() = default;
compiled_time_filter::compiled_time_filter(compiled_time_filter&&) noexcept = default;
compiled_time_filter& compiled_time_filter::operator=(compiled_time_filter&&) noexcept = default;

filter_outcome compiled_time_filter::evaluate(const event_view& event) const {
  const auto& f = *impl_;
  // RFC 3339 allows lower-case `t` and `z`; this cctz has no %ET and takes `Z` only.
  std::string text(event.time);
  if (text.size() > 10 && text[10] == 't')
    text[10] = 'T';
  if (!text.empty() && text.back() == 'z')
    text.back() = 'Z';
  std::chrono::system_clock::time_point precise;
  if (!cctz::parse("%Y-%m-%dT%H:%M:%E*S%Ez", text, cctz::utc_time_zone(), &precise))
    return {false, fmt::format("time filter error (event time '{}' is not RFC 3339)", event.time)};
  const auto local = cctz::convert(std::chrono::floor<cctz::seconds>(precise), f.zone);
  auto on_event_date = [&](const time_of_day& t) {
    return cctz::convert(cctz::civil_second(local.year(), local.month(), local.day(), t.hour,
                                            t.minute, t.second),
                         f.zone);
  };
  const auto start = on_event_date(f.start);
  const auto stop = on_event_date(f.stop);
  auto after_or_at = [&](seconds_point bound) { return precise >= bound; };
  auto before = [&](seconds_point bound) { return precise < bound; };
  if (start < stop)
    return {after_or_at(start) && before(stop), {}};
  return {after_or_at(start) || before(stop), {}};
}

std::string compiled_time_filter::describe() const {
  const auto& s = impl_->spec;
  return fmt::format("time {}-{} {}", s.start, s.stop, s.timezone.empty() ? "UTC" : s.timezone);
}

} // namespace ganglion::dsl
