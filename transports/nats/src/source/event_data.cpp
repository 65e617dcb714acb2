#include "source/event_data.hpp"

#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::nats {

std::string base64(std::string_view bytes) {
  return dsl::base64_encode(bytes);
}

std::optional<std::string> nats_event_data(std::string_view subject, std::string_view payload,
                                           const header_map& headers, bool json_body,
                                           const std::map<std::string, std::string>& metadata,
                                           std::string& error) {
  std::string out;
  out.reserve(payload.size() * 4 / 3 + subject.size() + 64);
  out += R"({"subject":)";
  dsl::append_go_json_string(out, subject);
  out += R"(,"body":)";
  if (!json_body)
    dsl::append_go_json_bytes(out, payload);
  else if (!dsl::append_go_json_body(out, payload, "the message body", error))
    return std::nullopt;
  dsl::append_go_json_omitempty(out, "header", headers);
  dsl::append_go_json_omitempty(out, "metadata", metadata);
  out += '}';
  return out;
}

} // namespace ganglion::nats
