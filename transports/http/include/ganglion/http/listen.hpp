#pragma once

// One port for every webhook (`ganglion run --listen [HOST]:PORT`, or $PORT): the serving
// contract of Knative and other platforms that give a container one port.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace ganglion::http {

/// Where every webhook endpoint is served when the ports the manifests name are not used.
struct listen_address {
  std::string host = "0.0.0.0";
  std::uint16_t port = 0;

  /// `host:port`, IPv6 hosts in brackets.
  std::string to_string() const;
};

/// Reads `PORT`, `:PORT`, `HOST:PORT` or `[IPV6]:PORT` (an absent host is 0.0.0.0). Throws
/// std::invalid_argument naming what is wrong: no port, a port outside 1-65535, a bracket not
/// closed.
listen_address parse_listen(std::string_view text);

/// A TCP port written in decimal, 1-65535 (a manifest's `port`); nullopt for anything else.
std::optional<std::uint16_t> parse_port(std::string_view text);

} // namespace ganglion::http
