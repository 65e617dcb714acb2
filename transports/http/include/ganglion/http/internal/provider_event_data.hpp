#pragma once

// Not installed: the event data the Git providers' push sources share.

#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "ganglion/http/push_source.hpp"
#include "ganglion/http/server.hpp"

namespace ganglion::http::detail {

/// Argo's `{Headers http.Header "headers"; Body *json.RawMessage "body"; Metadata
/// map[string]string "metadata,omitempty"}` (BitbucketEventData, BitbucketServerEventData,
/// GerritEventData …) as json.Marshal writes it: headers as Go's http.Header, the body
/// compacted, metadata left out when empty. nullopt with `error` set when the body is not one
/// JSON value (Argo answers 400 `invalid event`). The headers' key is `headers_key` (SNSEventData
/// calls it `header`).
std::optional<std::string> provider_event_data(const request& req,
                                               const std::map<std::string, std::string>& metadata,
                                               std::string& error,
                                               std::string_view headers_key = "headers");

/// provider_event_data to publish, or Argo's 400 `invalid event` (counted as `bad_request`).
push_outcome provider_push_outcome(const request& req,
                                   const std::map<std::string, std::string>& metadata);

} // namespace ganglion::http::detail
