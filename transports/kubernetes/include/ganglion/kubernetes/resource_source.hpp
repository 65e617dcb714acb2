#pragma once

#include <string>
#include <vector>

#include "ganglion/core/source.hpp"
#include "ganglion/kubernetes/transport.hpp"

namespace ganglion::kubernetes {

/// The `resource` source (Argo's resource event source): lists and watches the collection of
/// `group`/`version`/`resource` in `namespace` (every namespace when empty) with the label
/// filters as the API's label selector, and publishes each ADD, UPDATE and DELETE of
/// `eventTypes` that passes the other filters as a CloudEvent of type `resource` with Argo's
/// data `{"type","body","oldBody","group","version","resource"[,"metadata"]}`. At start every
/// listed object is an ADD (Argo's informer; `filter.afterStart` leaves them out); after a
/// relist only the differences are reported. Events are kept, in order, until the bus accepts
/// them. Throws core::source_error when there is no Kubernetes configuration, discovery does
/// not list the resource, or the first list fails (e.g. 403). `opts.object_identity` chooses
/// whose rights the list and watch use: the EventSource's service account (impersonate), the
/// engine's within the EventSource's namespace (namespace: an empty `namespace` is its own,
/// and cluster-scoped resources are refused), or the engine's (engine). Discovery is always
/// the engine's.
core::source_factory make_resource_source_factory(options opts = {});

/// The resource source's check step: the event exists with a version, a resource and known
/// event types, its label selector is valid and its field selectors compile; under `mode`
/// `impersonate` the EventSource's service account name is usable, under `namespace` its
/// `namespace` is empty or the EventSource's own. Reads nothing.
std::vector<std::string> check_resource_source(const core::source_context& ctx,
                                               identity_mode mode = identity_mode::engine);

} // namespace ganglion::kubernetes
