#include "source/delivery.hpp"

#include <cctype>

#include "client/signature.hpp"
#include "ganglion/dsl/go/go_json.hpp"
#include "ganglion/dsl/go/go_value.hpp"
#include "ganglion/http/internal/webhook_data.hpp"

namespace ganglion::github::detail {

namespace {

/// mime.ParseMediaType's media type: before `;`, trimmed, lower case.
std::string media_type(std::string_view content_type) {
  auto media = content_type.substr(0, content_type.find(';'));
  std::string out;
  for (char c : media)
    if (!std::isspace(static_cast<unsigned char>(c)))
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

http::push_outcome bad_request(const std::string& message) {
  return http::push_outcome::refuse(400, "bad_request", message);
}

} // namespace

http::push_outcome handle_delivery(const http::request& request,
                                   const delivery_settings& settings) {
  auto signature = request.header("X-Hub-Signature-256");
  if (signature.empty())
    signature = request.header("X-Hub-Signature");
  auto type = media_type(request.header("Content-Type"));
  std::string payload;
  if (type == "application/json") {
    payload = request.body;
  } else if (type == "application/x-www-form-urlencoded") {
    auto form = http::parse_query(request.body);
    if (auto found = form.find("payload"); found != form.end() && !found->second.empty())
      payload = found->second.front();
  } else if (type.empty()) {
    return bad_request("mime: no media type");
  } else {
    return bad_request("webhook request has unsupported Content-Type \"" + type + "\"");
  }
  if (!settings.secret.empty())
    if (auto problem = signature_problem(signature, request.body, settings.secret);
        !problem.empty())
      return http::push_outcome::refuse(400, "signature", problem);
  std::string error;
  auto body = dsl::remarshal_go_map(payload,
                                    {{"X-GitHub-Delivery", request.header("X-GitHub-Delivery")},
                                     {"X-GitHub-Event", request.header("X-GitHub-Event")}},
                                    error);
  if (!body)
    return bad_request(error);
  std::string data = R"({"headers":)";
  data += http::detail::headers_to_json(request.headers, false);
  data += R"(,"body":)";
  data += *body;
  dsl::append_go_json_omitempty(data, "metadata", settings.metadata);
  data += '}';
  return http::push_outcome::publish(std::move(data));
}

} // namespace ganglion::github::detail
