#include "source/queue_event_data.hpp"

#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::azure::detail {

std::optional<std::string> go_safe_base64_decode(std::string_view text, std::string& error) {
  // The URL alphabet differs from the standard one only in '-' and '_' for '+' and '/': a text
  // without '+' and '/' reads in the URL alphabet as its translation reads in the standard one,
  // and a text with either is not URL base64.
  if (text.find_first_of("+/") == std::string_view::npos) {
    std::string standard{text};
    for (auto& c : standard)
      c = c == '-' ? '+' : c == '_' ? '/' : c;
    auto url = dsl::base64_decode(standard);
    if (!url.illegal_at)
      return std::move(url.bytes);
  }
  auto decoded = dsl::base64_decode(text);
  if (decoded.illegal_at) {
    error = "illegal base64 data at input byte " + std::to_string(*decoded.illegal_at);
    return std::nullopt;
  }
  return std::move(decoded.bytes);
}

std::optional<std::string> queue_event_data(const queue_message& message,
                                            const queue_data_options& options,
                                            std::string& error) {
  std::string body = message.text;
  if (options.decode_message) {
    std::string why;
    auto decoded = go_safe_base64_decode(message.text, why);
    if (!decoded) {
      error = "failed to base64 decode message: " + why;
      return std::nullopt;
    }
    body = std::move(*decoded);
  }
  std::string out;
  out.reserve(body.size() * 4 / 3 + 160);
  out += R"({"body":)";
  if (!options.json_body)
    dsl::append_go_json_bytes(out, body);
  else if (!dsl::append_go_json_body(out, body, "the message", error))
    return std::nullopt;
  out += R"(,"messageID":)";
  dsl::append_go_json_string(out, message.id);
  out += R"(,"insertionTime":")";
  out += message.insertion_time.empty() ? "0001-01-01T00:00:00Z" : message.insertion_time;
  out += '"';
  dsl::append_go_json_omitempty(out, "metadata", options.metadata);
  out += '}';
  return out;
}

} // namespace ganglion::azure::detail
