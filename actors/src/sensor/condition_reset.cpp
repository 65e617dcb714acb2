#include "sensor/condition_reset.hpp"

#include <stdexcept>

namespace ganglion::core {

namespace {

using std::chrono::sys_seconds;

/// A civil time written as if it were UTC, so the UTC-calendar cron can walk local time.
sys_seconds as_fake_utc(const cctz::civil_second& cs) {
  using namespace std::chrono;
  auto date = sys_days{year{static_cast<int>(cs.year())} / month{static_cast<unsigned>(cs.month())}
                       / day{static_cast<unsigned>(cs.day())}};
  return date + hours{cs.hour()} + minutes{cs.minute()} + seconds{cs.second()};
}

cctz::civil_second from_fake_utc(sys_seconds t) {
  using namespace std::chrono;
  auto date = floor<days>(t);
  year_month_day ymd{date};
  hh_mm_ss hms{t - date};
  return cctz::civil_second(static_cast<int>(ymd.year()), static_cast<unsigned>(ymd.month()),
                            static_cast<unsigned>(ymd.day()), hms.hours().count(),
                            hms.minutes().count(), hms.seconds().count());
}

} // namespace

condition_reset_clock::condition_reset_clock(const dsl::conditions_reset& spec)
  : schedule_(dsl::cron_schedule::parse(spec.cron)) {
  auto zone_name = !spec.timezone.empty() ? spec.timezone : schedule_.location();
  if (zone_name.empty())
    zone_ = cctz::utc_time_zone();
  else if (!cctz::load_time_zone(zone_name, &zone_))
    throw std::runtime_error("conditionsReset: unknown time zone '" + zone_name + "'");
}

std::optional<std::chrono::system_clock::time_point>
condition_reset_clock::next(std::chrono::system_clock::time_point now) const {
  auto local = cctz::convert(std::chrono::time_point_cast<std::chrono::seconds>(now), zone_);
  auto fake = schedule_.next(as_fake_utc(local));
  if (!fake)
    return std::nullopt;
  // A local time skipped by a daylight-saving jump resolves to the instant after the jump.
  auto lookup = zone_.lookup(from_fake_utc(*fake));
  auto at = lookup.kind == cctz::time_zone::civil_lookup::SKIPPED ? lookup.trans : lookup.pre;
  return std::chrono::time_point_cast<std::chrono::system_clock::duration>(at);
}

} // namespace ganglion::core
