#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace ganglion::loadgen {

/// The value of the first `"seq":<digits>` or `"seq":"<digits>"` in `body`, with optional
/// whitespace around the colon; also found when the JSON was embedded as an escaped string
/// (`\"seq\":12`). Nullopt when no such key is followed by digits.
std::optional<std::uint64_t> find_seq(std::string_view body) noexcept;

} // namespace ganglion::loadgen
