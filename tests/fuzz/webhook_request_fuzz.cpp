// Fuzzes what the webhook makes of an HTTP request: the body limits session.cpp applies
// (request_reading.cpp) and the event webhook_event builds (webhook_event.cpp, webhook_data.cpp:
// query and form values, Go's header canonicalisation, the body as JSON). The input is written
// like a request: `METHOD TARGET` on the first line, `Name: value` header lines up to an empty
// line, then the body; the route `/push` takes at most 64 bytes. Proves that no request crashes
// or trips a sanitizer, that an event's data is always JSON (its structure: invalid UTF-8 in a
// JSON body is kept, as Go does), and that GET and form requests always give an event.

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "ganglion/http/internal/webhook_data.hpp"
#include "ganglion/http/webhook_event.hpp"
#include "json_shape.hpp"
#include "server/request_reading.hpp"

namespace {

/// The next line of `in` (without its `\n`), removed from `in`.
std::string_view take_line(std::string_view& in) {
  auto end = in.find('\n');
  auto line = in.substr(0, end);
  in.remove_prefix(end == std::string_view::npos ? in.size() : end + 1);
  return line;
}

/// The value of a Content-Length field as Beast accepts it: decimal digits only.
std::optional<std::uint64_t> content_length(std::string_view value) {
  if (value.empty() || value.size() > 19)
    return std::nullopt;
  std::uint64_t out = 0;
  for (char c : value) {
    if (c < '0' || c > '9')
      return std::nullopt;
    out = out * 10 + static_cast<std::uint64_t>(c - '0');
  }
  return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  namespace http = ganglion::http;
  std::string_view in(reinterpret_cast<const char*>(data), size);
  auto request_line = take_line(in);
  auto space = request_line.find(' ');
  std::string method(request_line.substr(0, space));
  std::string target(space == std::string_view::npos ? std::string_view{}
                                                     : request_line.substr(space + 1));
  http::header_list headers;
  std::optional<std::uint64_t> declared;
  for (auto line = take_line(in); !line.empty(); line = take_line(in)) {
    auto colon = line.find(':');
    auto name = line.substr(0, colon);
    auto value = colon == std::string_view::npos ? std::string_view{} : line.substr(colon + 1);
    while (!value.empty() && value.front() == ' ')
      value.remove_prefix(1);
    if (name == "Content-Length")
      declared = content_length(value);
    headers.emplace_back(std::string(name), std::string(value));
  }

  auto path = std::string_view(target).substr(0, target.find('?'));
  bool routed = path == "/push";
  auto limit =
    http::detail::body_limit_for(routed ? std::optional<std::uint64_t>{64} : std::nullopt);
  if (http::detail::declared_too_large(declared, limit) || in.size() > limit || !routed)
    return 0; // 413, or 404 without a route
  auto req =
    http::detail::make_request(method, target, std::move(headers), std::string(in), "127.0.0.1");
  if (req.path != path)
    __builtin_trap();

  static const std::map<std::string, std::string> metadata{{"team", "fuzz"}};
  std::string error;
  auto e = http::webhook_event("source", "event", req, metadata, error);
  if (!e) {
    if (req.method == "GET" || http::detail::is_form_content_type(req.header("Content-Type")))
      __builtin_trap(); // GET and form requests never fail
    return 0;
  }
  if (!ganglion::fuzz::is_json_shaped(e->data))
    __builtin_trap(); // the event data is not JSON
  return 0;
}
