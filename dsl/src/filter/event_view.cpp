#include "ganglion/dsl/filter/event_view.hpp"

namespace ganglion::dsl {

std::optional<simdjson::dom::element> parsed_data(const event_view& event) {
  if (event.data_is_json)
    return event.data;
  thread_local simdjson::dom::parser parser;
  simdjson::dom::element el;
  if (parser.parse(event.data_raw.data(), event.data_raw.size(), true).get(el))
    return std::nullopt;
  return el;
}

} // namespace ganglion::dsl
