#include <chrono>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/cron.hpp"
#include "ganglion/dsl/duration.hpp"
#include "ganglion/dsl/go/go_time.hpp"
#include "ganglion/dsl/kind/load_context.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/exclusion_dates.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::calendar::detail {

using dsl::detail::child_path;
using dsl::detail::item_path;

namespace {

void check_schedule(const event_spec& spec, const dsl::spec_check_input& in) {
  const auto& at = in.path;
  if (spec.schedule.empty() && spec.interval.empty())
    in.cx.error(at, "a calendar event needs a schedule or an interval");
  if (!spec.schedule.empty()) {
    try {
      dsl::cron_schedule::parse(spec.schedule);
    } catch (const dsl::compile_error& e) {
      in.cx.error(child_path(at, "schedule"),
                  "invalid cron schedule \"" + spec.schedule + "\": " + e.what());
    }
    if (!spec.interval.empty())
      in.cx.warning(child_path(at, "interval"),
                    "ignored: schedule takes precedence over interval");
    return;
  }
  if (spec.interval.empty())
    return;
  auto interval = dsl::parse_go_duration(spec.interval);
  if (!interval)
    in.cx.error(child_path(at, "interval"), "invalid interval \"" + spec.interval
                                               + "\" (a Go duration such as 10s or 1h30m)");
  else if (std::chrono::nanoseconds{*interval} < std::chrono::seconds{1})
    // robfig's ConstantDelaySchedule takes off the fraction of a second of the last tick: a
    // shorter delay can land on or before it, and Argo then fires without pause.
    in.cx.error(child_path(at, "interval"),
                "interval \"" + spec.interval + "\" is shorter than 1s: Argo's calendar would "
                "fire without pause; use 1s or more");
}

void check_exclusion_dates(const event_spec& spec, const dsl::spec_check_input& in) {
  auto at = child_path(in.path, "exclusionDates");
  auto dates = read_exclusion_dates(spec.exclusion_dates);
  for (auto i : dates.unprefixed)
    in.cx.warning(item_path(at, i),
                  "ignored: an exclusion date must look like EXDATE:20060102T150405Z");
  for (const auto& [i, text] : dates.invalid)
    in.cx.error(item_path(at, i),
                "invalid exclusion date \"" + text + "\" (expected 20060102T150405Z)");
}

void check_persistence(const event_spec& spec, const dsl::spec_check_input& in) {
  if (!spec.persistence)
    return;
  auto at = child_path(in.path, "persistence");
  const auto& max = spec.persistence->catchup_max;
  if (!max.empty() && !dsl::parse_go_duration(max))
    in.cx.error(child_path(child_path(at, "catchup"), "maxDuration"),
                "invalid duration \"" + max + "\"");
}

} // namespace

void check_event(const event_spec& spec, const dsl::spec_check_input& in) {
  check_schedule(spec, in);
  if (!dsl::go_time_string({}, spec.timezone))
    in.cx.error(child_path(in.path, "timezone"), "unknown time zone \"" + spec.timezone + "\"");
  check_exclusion_dates(spec, in);
  check_persistence(spec, in);
}

} // namespace ganglion::calendar::detail
