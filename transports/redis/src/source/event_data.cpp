#include "source/event_data.hpp"

#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::redis {

std::optional<std::string> pubsub_event_data(std::string_view channel, std::string_view pattern,
                                             std::string_view payload, bool json_body,
                                             const std::map<std::string, std::string>& metadata,
                                             std::string& error) {
  std::string out;
  out.reserve(payload.size() + channel.size() + 64);
  out += R"({"channel":)";
  dsl::append_go_json_string(out, channel);
  out += R"(,"pattern":)";
  dsl::append_go_json_string(out, pattern);
  out += R"(,"body":)";
  if (!json_body)
    dsl::append_go_json_string(out, payload);
  else if (!dsl::append_go_json_body(out, payload, "the message", error))
    return std::nullopt;
  dsl::append_go_json_omitempty(out, "metadata", metadata);
  out += '}';
  return out;
}

std::string stream_event_data(std::string_view stream, std::string_view id,
                              const std::optional<std::map<std::string, std::string>>& values,
                              const std::map<std::string, std::string>& metadata) {
  std::string out;
  out += R"({"stream":)";
  dsl::append_go_json_string(out, stream);
  out += R"(,"message_id":)";
  dsl::append_go_json_string(out, id);
  out += R"(,"values":)";
  if (values)
    dsl::append_go_json_object(out, *values);
  else
    out += "null";
  dsl::append_go_json_omitempty(out, "metadata", metadata);
  out += '}';
  return out;
}

} // namespace ganglion::redis
