#pragma once

// Private: what the file and sftp sources share: which changes an event takes, and handing
// each to the bus.

#include <cstdint>
#include <string>
#include <string_view>

#include "ganglion/core/source.hpp"
#include "ganglion/file/spec.hpp"
#include "source/delivery.hpp"
#include "source/path_match.hpp"
#include "source/source_metrics.hpp"

namespace ganglion::file {

/// Publishes the changes an event takes, one at a time, as CloudEvents of type `kind`.
class change_publisher {
public:
  /// `name` prefixes log lines (`file source es/event`); `stop` ends a wait for the bus.
  change_publisher(const core::source_context& ctx, std::string kind, std::string name,
                   const watch_path_config& watch, std::string event_type,
                   metadata_map metadata, const stop_flag& stop);

  /// Publishes the change of `name` with operation bits `op` when its name matches and its
  /// operation name is the eventType, waiting for the bus (delivery::deliver); false when the
  /// source must end (the bus stopped, or the source is stopping).
  bool offer(std::string_view name, std::uint32_t op);

  /// The prefix of log lines.
  const std::string& name() const noexcept { return name_; }

private:
  std::string kind_;
  std::string name_;
  std::string event_source_;
  std::string event_name_;
  std::string event_type_;
  metadata_map metadata_;
  path_matcher matcher_;
  source_metrics metrics_;
  delivery delivery_;
};

} // namespace ganglion::file
