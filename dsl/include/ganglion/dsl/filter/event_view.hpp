#pragma once

// Not installed: exposes simdjson.

#include <optional>
#include <string_view>

#include <simdjson.h>

namespace ganglion::dsl {

/// A CloudEvent as the sensor sees it: context strings and the data parsed once.
struct event_view {
  std::string_view id;
  std::string_view source;
  std::string_view specversion;
  std::string_view type;
  std::string_view datacontenttype;
  std::string_view subject;
  std::string_view time;
  /// The raw data bytes (JSON text when datacontenttype is application/json).
  std::string_view data_raw;
  /// The parsed data; meaningful only when data_is_json.
  simdjson::dom::element data;
  /// False when the event has no data or it is not valid JSON.
  bool data_is_json = false;
};

/// The event's data as a DOM element: the parsed data, or — Argo parses any non-nil data,
/// whatever its content type — `data_raw` parsed with this thread's parser (valid until the
/// next call on the thread). nullopt when it is not JSON.
std::optional<simdjson::dom::element> parsed_data(const event_view& event);

} // namespace ganglion::dsl
