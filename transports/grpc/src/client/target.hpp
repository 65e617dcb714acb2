#pragma once

// Private: what a generic source's `url` or a custom trigger's `serverURL` names.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ganglion::grpc::detail {

/// A parsed server address: a DNS name to resolve (`host:port`, `dns:///host:port`), or the
/// addresses themselves (`ipv4:a:p,b:p`, `ipv6:[a]:p`, a literal IP with its port).
struct server_target {
  std::string host;                     ///< the name (or literal IP) TLS verifies; `authority` host
  std::string port;                     ///< the port of a DNS name
  std::vector<std::string> addresses;   ///< gRPC targets of single addresses (`ipv4:1.2.3.4:5`)
  bool needs_resolving() const noexcept { return addresses.empty(); }
  std::string authority() const;        ///< `host:port` (the `:authority` of calls)
};

/// Parses `url`; nullopt with `error` set when it is none of the forms above.
std::optional<server_target> parse_target(std::string_view url, std::string& error);

/// Resolves `target` to one gRPC target per address (IPv4 and IPv6, without duplicates, in
/// the resolver's order); the addresses themselves when it names them. Empty with `error` set
/// when the name does not resolve.
std::vector<std::string> resolve(const server_target& target, std::string& error);

} // namespace ganglion::grpc::detail
