#pragma once

// Who the admin API answers (docs/security.md, "The admin API"): the Host names it serves
// (against DNS rebinding), no state change from a web page (against cross-site requests), and
// the bearer token of --admin-token-file.

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "admin_token.hpp"
#include "ganglion/http/server.hpp"

namespace ganglion::app {

/// The header every state-changing admin request must carry (any non-empty value): a web page
/// cannot send it without a CORS preflight, which the admin server never grants.
inline constexpr std::string_view admin_request_header = "X-Ganglion-Admin";

/// How the admin server checks its requests.
struct admin_access {
  std::string bound_host;         ///< the HOST of --admin HOST:PORT
  std::vector<std::string> names; ///< --admin-host: more DNS names Host may carry (`*.suffix`)
  std::shared_ptr<admin_token> token; ///< --admin-token-file; null: no token asked
};

/// What an admin route is, for the token rule.
enum class admin_route_kind {
  probe, ///< /health and /ready: kubelet probes, never asked for the token
  api,   ///< everything else, /metrics included: the token when there is one
};

/// True when a request whose `Host` header is `host` may be served: no Host (HTTP/1.0), an IP
/// literal (a rebinding attack needs a DNS name), `localhost`, the bound host, or a name of
/// `access.names`; any port.
bool host_allowed(const admin_access& access, std::string_view host);

/// The refusal of `req`, or nullopt when it may be served: 403 for a Host not served, 403 for a
/// state-changing method (not GET, HEAD, OPTIONS) with an `Origin` header or without
/// X-Ganglion-Admin, 401 (`WWW-Authenticate: Bearer`) without the right token.
std::optional<http::response> refuse_admin_request(const admin_access& access,
                                                   const http::request& req,
                                                   admin_route_kind kind);

} // namespace ganglion::app
