#pragma once

// The event as Argo's json.Marshal renders it for trigger parameters.

#include <string>

#include "ganglion/dsl/filter/event_view.hpp"

namespace ganglion::dsl {

/// json.Marshal(event.Context): `{"id":…,"source":…,"specversion":…,"type":…,
/// "datacontenttype":…,"subject":…,"time":…}` with the time in UTC to the second (or null).
std::string event_context_json(const event_view& event);

/// json.Marshal(event): `{"context":{…},"data":"<base64 of the data bytes>"}` (data null when
/// there is none).
std::string whole_event_json(const event_view& event);

} // namespace ganglion::dsl
