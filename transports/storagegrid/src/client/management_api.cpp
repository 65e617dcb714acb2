#include "client/management_api.hpp"

#include <nlohmann/json.hpp>

#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::storagegrid::detail {

namespace {

constexpr std::size_t max_answer_bytes = std::size_t{16} << 20;
// go-resty's User-Agent, the version of Argo's go.mod.
constexpr const char* user_agent = "go-resty/2.17.2 (https://github.com/go-resty/resty)";

void json_field(std::string& out, std::string_view name, const std::string& value) {
  out += '"';
  out += name;
  out += "\":";
  dsl::append_go_json_string(out, value);
}

} // namespace

std::string endpoint_body(const std::string& display_name, const std::string& uri,
                          const std::string& urn) {
  std::string out = "{";
  json_field(out, "displayName", display_name);
  out += ',';
  json_field(out, "endpointURI", uri);
  out += ',';
  json_field(out, "endpointURN", urn);
  out += R"(,"authType":"anonymous","insecureTLS":true})";
  return out;
}

std::string notification_xml(const std::string& id, const std::string& topic,
                             const std::vector<std::string>& events) {
  std::string lines;
  for (const auto& e : events) {
    if (!lines.empty())
      lines += '\n';
    lines += "<Event>" + e + "</Event>";
  }
  return "\n<NotificationConfiguration>\n\t<TopicConfiguration>\n\t  <Id>" + id
         + "</Id>\n\t  <Topic>" + topic + "</Topic>\n\t  " + lines
         + "\n\t</TopicConfiguration>\n</NotificationConfiguration>\n\n";
}

std::string notification_body(const std::string& xml) {
  std::string out = "{";
  json_field(out, "notification", xml);
  out += '}';
  return out;
}

std::string error_text(const std::string& body) {
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (!j.is_object())
    return {};
  auto message = j.find("message");
  if (message == j.end() || !message->is_object())
    return {};
  auto text = message->find("text");
  return text != message->end() && text->is_string() ? text->get<std::string>() : std::string{};
}

management_api::management_api(http::client& client, std::string api_url, std::string token,
                               std::optional<http::client_tls> tls,
                               std::chrono::milliseconds timeout)
  : client_(client), api_url_(std::move(api_url)), token_(std::move(token)), tls_(std::move(tls)),
    timeout_(timeout) {}

http::api_answer management_api::call(std::string method, const std::string& path,
                                      std::string body) const {
  http::client_request req;
  req.method = std::move(method);
  req.url = http::formatted_url(api_url_, path);
  req.headers = {{"User-Agent", user_agent},
                 {"Accept", "application/json"},
                 {"Authorization", "Bearer " + token_},
                 {"Content-Type", "application/json"}};
  req.body = std::move(body);
  req.timeout = timeout_;
  req.tls = tls_;
  req.max_response_bytes = max_answer_bytes;
  return http::call_api(client_, std::move(req), "StorageGRID");
}

std::optional<std::vector<std::string>> management_api::endpoint_urns(
  http::api_answer& failed) const {
  auto r = call("GET", "/org/endpoints", {});
  if (!r.error.empty()) {
    failed = std::move(r);
    return std::nullopt;
  }
  auto page = nlohmann::json::parse(r.body, nullptr, false);
  auto data = page.is_object() ? page.find("data") : page.end();
  if (!page.is_object() || (data != page.end() && !data->is_array() && !data->is_null())) {
    failed = {
      r.status, "StorageGRID's answer to GET /org/endpoints is not a list of endpoints", {}};
    return std::nullopt;
  }
  std::vector<std::string> out;
  if (data != page.end() && data->is_array())
    for (const auto& e : *data) {
      if (!e.is_object())
        continue;
      auto urn = e.find("endpointURN");
      if (urn != e.end() && urn->is_string())
        out.push_back(urn->get<std::string>());
    }
  return out;
}

bool management_api::create_endpoint(std::string body, http::api_answer& failed) const {
  auto r = call("POST", "/org/endpoints", std::move(body));
  if (r.error.empty())
    return true;
  failed = std::move(r);
  return false;
}

bool management_api::put_notification(const std::string& bucket, std::string body,
                                      http::api_answer& failed) const {
  // *ganglion*: the bucket is escaped as one path segment; Argo pastes it into the URL (S3's
  // bucket names need no escaping either way).
  auto r =
    call("PUT", "/org/containers/" + http::path_escape(bucket) + "/notification", std::move(body));
  if (r.error.empty())
    return true;
  failed = std::move(r);
  return false;
}

} // namespace ganglion::storagegrid::detail
