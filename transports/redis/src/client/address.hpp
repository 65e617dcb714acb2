#pragma once

// Private: `hostAddress` split as Go's net.SplitHostPort does.

#include <optional>
#include <string>
#include <string_view>

namespace ganglion::redis {

/// A server's host and TCP port.
struct host_port {
  std::string host; ///< without IPv6 brackets
  std::string port;
};

/// `host:port` or `[v6]:port` (net.SplitHostPort); nullopt with `error` set otherwise. The
/// port must be a number in 1..65535.
std::optional<host_port> split_host_address(std::string_view address, std::string& error);

} // namespace ganglion::redis
