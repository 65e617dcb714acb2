#pragma once

// The binary form of an event in the bus's log and in sensor snapshots: its eight CloudEvent
// string fields in declaration order (id, source, type, subject, time, datacontenttype,
// specversion, data), then `namespace_` only when it is not empty, each as a little-endian u32
// length followed by the bytes. `sequence` is not part of it (the log keeps it in the record
// header). Logs written before namespaces were kept decode unchanged.

#include <cstddef>
#include <string>
#include <string_view>

#include "ganglion/core/event.hpp"

namespace ganglion::core {

/// The bytes encode_event appends for `e`.
std::size_t encoded_size(const event& e) noexcept;

/// Appends the encoding of `e` (every field but `sequence`) to `out`.
void encode_event(const event& e, std::string& out);

/// Decodes exactly `bytes` into `out` (its `sequence` is left as is); false when `bytes` is not
/// one complete encoding (truncated, a length past the end, trailing bytes).
bool decode_event(std::string_view bytes, event& out);

} // namespace ganglion::core
