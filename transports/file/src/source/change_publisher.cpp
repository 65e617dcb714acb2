#include "source/change_publisher.hpp"

#include <spdlog/spdlog.h>

#include "client/fs_event.hpp"
#include "ganglion/core/event.hpp"
#include "source/event_data.hpp"

namespace ganglion::file {

change_publisher::change_publisher(const core::source_context& ctx, std::string kind,
                                   std::string name, const watch_path_config& watch,
                                   std::string event_type, metadata_map metadata,
                                   const stop_flag& stop)
  : kind_(std::move(kind)), name_(std::move(name)), event_source_(ctx.event_source_name),
    event_name_(ctx.event_name), event_type_(std::move(event_type)),
    metadata_(std::move(metadata)), matcher_(watch),
    metrics_(ctx.metrics, ctx.event_source_name, ctx.event_name),
    delivery_(name_, ctx.bus, metrics_, stop) {}

bool change_publisher::offer(std::string_view name, std::uint32_t op) {
  if (!matcher_.matches(name) || op_string(op) != event_type_)
    return true;
  metrics_.received();
  spdlog::debug("{}: {} {}", name_, event_type_, name);
  auto data = file_event_data(name, op, metadata_);
  return delivery_.deliver(core::make_event(event_source_, kind_, event_name_, std::move(data)));
}

} // namespace ganglion::file
