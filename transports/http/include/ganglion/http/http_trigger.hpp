#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ganglion/core/trigger.hpp"
#include "ganglion/http/client.hpp"

namespace ganglion::http {

/// The `http` trigger: per execution builds the body from `payload[]` over the invocation's
/// events and sends `method` (default POST) to `url` with `headers`, `secureHeaders`,
/// `basicAuth`, `tls` and `timeout` through `requests`. Any HTTP response is a success unless
/// `policy.status.allow` lists the accepted codes; the outcome detail is `HTTP <code>`.
/// Template-level `parameters[]` and then `http.parameters[]` rewrite the request per execution;
/// `preview()` renders the exact request without sending it.
/// Throws core::trigger_error for a configuration that cannot run (missing secret, bad path).
core::trigger_factory make_http_trigger_factory(std::shared_ptr<client> requests);

/// The http trigger's check step (also run when an executor is created): template.http present,
/// no dynamicHeaders, secureHeaders from secrets, parameters that compile and, when no
/// parameter rewrites the request, an absolute http(s) URL. Reads no secret.
std::vector<std::string> check_http_trigger(const core::trigger_context& ctx);

} // namespace ganglion::http
