#pragma once

// The pure part of reading an HTTP request (session.cpp): which body limit applies, when a
// declared length is refused before the body is read, and what a parsed message becomes. No
// Beast or Asio, so the fuzz target (tests/fuzz/webhook_request_fuzz.cpp) links it alone.

#include <cstdint>
#include <optional>
#include <string>

#include "ganglion/http/server.hpp"

namespace ganglion::http::detail {

/// The body limit of a request no route serves (its answer is 404 or /health's OK).
inline constexpr std::uint64_t unrouted_body_limit = 1048576;

/// The body limit of a request: its route's, or unrouted_body_limit without one.
std::uint64_t body_limit_for(const std::optional<std::uint64_t>& route_limit) noexcept;

/// True when a request declaring `content_length` (nullopt: none, e.g. chunked) is answered
/// 413 before its body is read.
bool declared_too_large(const std::optional<std::uint64_t>& content_length,
                        std::uint64_t limit) noexcept;

/// The request a route gets: `target` as sent, split into `path` and `query` at the first `?`.
request make_request(std::string method, std::string target, header_list headers, std::string body,
                     std::string remote_address);

} // namespace ganglion::http::detail
