#pragma once

// Private: the data of a `file` or `sftp` event, as Argo marshals its fsevent.Event.

#include <cstdint>
#include <string>
#include <string_view>

#include "ganglion/file/spec.hpp"

namespace ganglion::file {

/// `{"name":…,"op":<number>,"metadata":…}`: `op` is fsevent.Op, a number (CREATE 1, WRITE 2,
/// REMOVE 4, RENAME 8, CHMOD 16); `metadata` is `null` when the event has none (no omitempty).
std::string file_event_data(std::string_view name, std::uint32_t op,
                            const metadata_map& metadata);

} // namespace ganglion::file
