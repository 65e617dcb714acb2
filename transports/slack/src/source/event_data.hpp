#pragma once

// The event data of the slack source, as Argo's slack source (slack-go) writes it.

#include <optional>
#include <string>
#include <string_view>

#include "ganglion/http/server.hpp"

namespace ganglion::slack::detail {

/// json.Marshal of slack-go's SlashCommand parsed from a slash command's form (fields in Go's
/// order, enterprise_id and enterprise_name left out when empty, is_enterprise_install a bool).
std::string slash_command_data(const http::query_values& form);

/// An interactive component's `payload` form field: the JSON object compacted with Go's
/// escaping; nullopt with `error` set when it is not a JSON object (Argo fails to unmarshal it).
std::optional<std::string> interaction_data(std::string_view payload, std::string& error);

/// What an Events API request holds.
struct events_api_request {
  std::string token;     ///< the verification token it carries
  std::string type;      ///< `url_verification`, `event_callback`, …
  std::string challenge; ///< url_verification's challenge
  /// event_callback's data: `{"type":<event.type>,"Data":<event>}` (Argo marshals slack-go's
  /// EventsAPIInnerEvent, whose Data has no JSON tag).
  std::string data;
};

/// Reads an Events API body; nullopt with `error` set when it is not the JSON object slack-go
/// parses (a token or type that is not a string, an event_callback without an `event` object
/// with a string `type`).
std::optional<events_api_request> read_events_api(std::string_view body, std::string& error);

} // namespace ganglion::slack::detail
