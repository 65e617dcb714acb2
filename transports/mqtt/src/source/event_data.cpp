#include "source/event_data.hpp"

#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::mqtt {

std::optional<std::string> mqtt_event_data(std::string_view topic, int message_id,
                                           std::string_view payload, bool json_body,
                                           const std::map<std::string, std::string>& metadata,
                                           std::string& error) {
  std::string out;
  out.reserve(payload.size() * 4 / 3 + topic.size() + 64);
  out += R"({"topic":)";
  dsl::append_go_json_string(out, topic);
  out += R"(,"messageId":)";
  out += std::to_string(message_id);
  out += R"(,"body":)";
  if (!json_body)
    dsl::append_go_json_bytes(out, payload);
  else if (!dsl::append_go_json_body(out, payload, "the message body", error))
    return std::nullopt;
  dsl::append_go_json_omitempty(out, "metadata", metadata);
  out += '}';
  return out;
}

} // namespace ganglion::mqtt
