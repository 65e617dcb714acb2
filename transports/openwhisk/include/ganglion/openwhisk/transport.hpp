#pragma once

#include <memory>

#include "ganglion/core/trigger.hpp"
#include "ganglion/http/client.hpp"
#include "ganglion/http/transport.hpp"

namespace ganglion::openwhisk {

/// The `openWhisk` trigger: per execution POSTs the `payload[]` body to
/// `{host}/api/{version}/namespaces/{namespace}/actions/{actionName}?blocking=true&result=true`
/// with `Authorization: Basic base64(authToken)`, through `requests`. A 2xx answer is a success
/// (then `policy.status.allow`, when given, must list it); the outcome detail is `HTTP <code>`.
/// Template-level `parameters[]` and `openWhisk.parameters[]` rewrite host, version, namespace
/// and actionName per execution.
core::trigger_factory make_trigger_factory(std::shared_ptr<http::client> requests);

/// Registers the `openWhisk` trigger on the http runtime's client.
void register_transport(core::trigger_registry& triggers,
                        const std::shared_ptr<http::runtime>& http);

} // namespace ganglion::openwhisk
