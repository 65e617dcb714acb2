#include "ganglion/http/webhook_event.hpp"

#include "ganglion/http/internal/webhook_data.hpp"

namespace ganglion::http {

std::optional<core::event> webhook_event(const std::string& event_source,
                                         const std::string& event_name, const request& req,
                                         const std::map<std::string, std::string>& metadata,
                                         std::string& error) {
  std::string body;
  if (req.method == "GET") {
    body = detail::query_to_json(req.query);
  } else if (detail::is_form_content_type(req.header("Content-Type"))) {
    body = detail::query_to_json(req.body);
  } else {
    auto minified = detail::validate_json(req.body, error);
    if (!minified)
      return std::nullopt;
    body = std::move(*minified);
  }
  return core::make_event(
    event_source, "webhook", event_name,
    detail::webhook_event_data(detail::headers_to_json(req.headers, true), body, metadata));
}

} // namespace ganglion::http
