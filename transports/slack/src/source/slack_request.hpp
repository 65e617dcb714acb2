#pragma once

// What the slack source makes of one request, as Argo's slack Router.HandleRoute does.

#include <chrono>
#include <string>

#include "ganglion/http/push_source.hpp"

namespace ganglion::slack::detail {

/// The secrets an event reads at start.
struct slack_secrets {
  std::string token;          ///< the Events API verification token
  std::string signing_secret; ///< empty: requests are not signature-checked (as Argo)
};

/// Verifies the signature (when a signing secret is set; 401 `signature` or `timestamp`), then:
/// a form (`Content-Type` exactly application/x-www-form-urlencoded) with `payload` publishes
/// the interaction, with `command` the slash command, else 400; a JSON body is an Events API
/// request whose token must match (401 `token`): url_verification is answered with its
/// challenge (Content-Type `text`), event_callback publishes `{"type":…,"Data":…}`, other
/// types are answered 200 `success`. A malformed request is refused with 400 (Argo: 500).
http::push_outcome handle_request(const http::request& request, const slack_secrets& secrets,
                                  std::chrono::system_clock::time_point now);

} // namespace ganglion::slack::detail
