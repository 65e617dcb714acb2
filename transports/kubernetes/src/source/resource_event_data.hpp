#pragma once

// Private: the data of a resource event, Argo's ResourceEventData.

#include <string>

#include "ganglion/kubernetes/resource_spec.hpp"
#include "source/resource_store.hpp"

namespace ganglion::kubernetes::detail {

/// `{"type":…,"body":{…},"oldBody":{…}|null,"group":…,"version":…,"resource":…}` plus
/// `"metadata":{…}` when the spec has some; the objects minified. Throws std::invalid_argument
/// when an object is not JSON.
std::string resource_event_data(const resource_change& change, const resource_event_spec& spec);

} // namespace ganglion::kubernetes::detail
