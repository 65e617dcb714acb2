#pragma once

// Not installed: exposes simdjson.

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

} // namespace ganglion::dsl
