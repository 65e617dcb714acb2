#include "source/event_data.hpp"

#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::grpc::detail {

std::optional<std::string> generic_event_data(std::string_view payload, bool json_body,
                                              const std::map<std::string, std::string>& metadata,
                                              std::string& error) {
  std::string out;
  out.reserve(payload.size() * 4 / 3 + 64);
  out += R"({"body":)";
  if (payload.empty()) {
    out += "null";
  } else if (!json_body) {
    dsl::append_go_json_bytes(out, payload);
  } else if (!dsl::append_go_json_raw(out, payload, error)) {
    error = "the payload is not valid JSON: " + error;
    return std::nullopt;
  }
  dsl::append_go_json_omitempty(out, "metadata", metadata);
  out += '}';
  return out;
}

} // namespace ganglion::grpc::detail
