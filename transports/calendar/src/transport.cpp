#include "ganglion/calendar/transport.hpp"

#include <fmt/format.h>

#include "ganglion/calendar/spec.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/dsl/go/go_time.hpp"
#include "source/calendar_source.hpp"
#include "source/tick_schedule.hpp"

namespace ganglion::calendar {

namespace {

std::vector<std::string> check_source(const core::source_context& ctx) {
  return core::check_spec<event_spec>(ctx, [&](const event_spec& spec) {
    auto name = fmt::format("calendar source {}/{}", ctx.event_source_name, ctx.event_name);
    std::vector<std::string> problems;
    try {
      detail::tick_schedule{spec};
    } catch (const std::exception& e) {
      problems.push_back(fmt::format("{}: {}", name, e.what()));
    }
    if (!dsl::go_time_string({}, spec.timezone))
      problems.push_back(fmt::format("{}: unknown time zone \"{}\"", name, spec.timezone));
    return problems;
  });
}

} // namespace

void register_transport(core::source_registry& sources) {
  // One clock for every calendar source of the process, started with the first.
  auto clock = std::make_shared<detail::ticker>();
  sources["calendar"] = core::source_factory{
    [clock](const core::source_context& ctx) { return detail::start_calendar(ctx, clock); },
    check_source, source_spec_step()};
}

} // namespace ganglion::calendar
