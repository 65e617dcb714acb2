#include "ganglion/http/internal/provider_event_data.hpp"

#include "ganglion/dsl/go/go_json.hpp"
#include "ganglion/http/internal/webhook_data.hpp"

namespace ganglion::http::detail {

std::optional<std::string> provider_event_data(const request& req,
                                               const std::map<std::string, std::string>& metadata,
                                               std::string& error,
                                               std::string_view headers_key) {
  std::string out = "{\"";
  out += headers_key;
  out += "\":";
  out += headers_to_json(req.headers, false);
  out += R"(,"body":)";
  if (!dsl::append_go_json_raw(out, req.body, error))
    return std::nullopt;
  dsl::append_go_json_omitempty(out, "metadata", metadata);
  out += '}';
  return out;
}

push_outcome provider_push_outcome(const request& req,
                                   const std::map<std::string, std::string>& metadata) {
  std::string error;
  auto data = provider_event_data(req, metadata, error);
  if (!data)
    return push_outcome::refuse(400, "bad_request", "invalid event");
  return push_outcome::publish(std::move(*data));
}

} // namespace ganglion::http::detail
