#include "source/source_filter.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "source/namespaced_publisher.hpp"

namespace ganglion::core {

const dsl::source_event& event_of(const source_context& ctx) {
  if (ctx.event != nullptr)
    return *ctx.event;
  const auto* event = ctx.manifest ? ctx.manifest->spec.find(ctx.type, ctx.event_name) : nullptr;
  if (event == nullptr)
    throw source_error(fmt::format("EventSource {} has no {} event named {}",
                                   ctx.event_source_name, ctx.type, ctx.event_name));
  return *event;
}

const dsl::event_source_filter* filter_of(const source_context& ctx) {
  const auto* event = ctx.event;
  if (event == nullptr && ctx.manifest != nullptr)
    event = ctx.manifest->spec.find(ctx.type, ctx.event_name);
  return event && event->filter ? &*event->filter : nullptr;
}

filtered_publisher::filtered_publisher(const std::string& expression, const source_context& ctx)
  : filter_(expression), bus_(ctx.bus),
    name_(fmt::format("{} source {}/{}", ctx.type, ctx.event_source_name, ctx.event_name)),
    counters_(ctx.metrics, ctx.event_source_name, ctx.event_name,
              {to_string(publish_status::filtered), "filter_error"}) {}

void filtered_publisher::publish(event&& e, publish_done done) {
  std::string error;
  if (filter_.passes(e.data, error)) {
    bus_->publish(std::move(e), std::move(done));
    return;
  }
  std::uint64_t held_back = 0;
  if (error.empty()) {
    counters_.rejected(to_string(publish_status::filtered));
    spdlog::debug("{}: event {} filtered out", name_, e.id);
  } else {
    counters_.rejected("filter_error");
    if (error_log_.allow(held_back))
      spdlog::warn("{}: event {} dropped: filter.expression failed: {}{}", name_, e.id,
                   error, held_back_note(held_back));
  }
  done(publish_status::filtered, error);
}

std::unique_ptr<source> start_source(const source_factory& factory, source_context ctx) {
  if (ctx.bus && ctx.manifest && !ctx.manifest->metadata.namespace_.empty())
    ctx.bus = std::make_shared<namespaced_publisher>(ctx.manifest->metadata.namespace_, ctx.bus);
  const auto* filter = filter_of(ctx);
  if (filter != nullptr && !filter->expression.empty() && ctx.bus) {
    try {
      ctx.bus = std::make_shared<filtered_publisher>(filter->expression, ctx);
    } catch (const std::runtime_error& e) {
      throw source_error(fmt::format("{} source {}/{}: {}", ctx.type, ctx.event_source_name,
                                     ctx.event_name, e.what()));
    }
  }
  return factory(ctx);
}

} // namespace ganglion::core
