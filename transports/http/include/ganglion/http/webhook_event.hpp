#pragma once

#include <map>
#include <optional>
#include <string>

#include "ganglion/core/event.hpp"
#include "ganglion/http/server.hpp"

namespace ganglion::http {

/// The CloudEvent webhook event `event_source`/`event_name` publishes for `req`, as Argo
/// builds it: `id` random, `type` `webhook`, `source` and `subject` the names, `time` now, and
/// data `{"header":…,"body":…,"metadata":…}` — `header` Go's http.Header of the request
/// (`Authorization` masked), `body` the URL query for GET, the form values for a form POST,
/// else the body as minified JSON. nullopt with `error` set when that body is not valid JSON.
/// Checks neither method nor authorization.
std::optional<core::event> webhook_event(const std::string& event_source,
                                         const std::string& event_name, const request& req,
                                         const std::map<std::string, std::string>& metadata,
                                         std::string& error);

} // namespace ganglion::http
