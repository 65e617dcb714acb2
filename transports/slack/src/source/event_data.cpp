#include "source/event_data.hpp"

#include <nlohmann/json.hpp>

#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::slack::detail {

namespace {

using ordered = nlohmann::ordered_json;

std::string first(const http::query_values& form, const std::string& key) {
  auto it = form.find(key);
  return it == form.end() || it->second.empty() ? std::string{} : it->second.front();
}

void field(std::string& out, std::string_view name, std::string_view value) {
  out += out.size() > 1 ? ",\"" : "\"";
  out += name;
  out += "\":";
  dsl::append_go_json_string(out, value);
}

/// `key` of `object` when it is a string or absent; false when it is there with another type
/// (Go's json.Unmarshal fails on it).
bool string_member(const ordered& object, const char* key, std::string& out) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null())
    return true;
  if (!it->is_string())
    return false;
  out = it->get<std::string>();
  return true;
}

/// `value` as JSON with Go's escaping, compacted.
std::string go_json(const ordered& value) {
  std::string out;
  std::string ignored;
  dsl::append_go_json_raw(out, value.dump(), ignored);
  return out;
}

} // namespace

std::string slash_command_data(const http::query_values& form) {
  std::string out = "{";
  field(out, "token", first(form, "token"));
  field(out, "team_id", first(form, "team_id"));
  field(out, "team_domain", first(form, "team_domain"));
  if (auto v = first(form, "enterprise_id"); !v.empty())
    field(out, "enterprise_id", v);
  if (auto v = first(form, "enterprise_name"); !v.empty())
    field(out, "enterprise_name", v);
  out += ",\"is_enterprise_install\":";
  out += first(form, "is_enterprise_install") == "true" ? "true" : "false";
  for (const char* key : {"channel_id", "channel_name", "user_id", "user_name", "command", "text",
                          "response_url", "trigger_id", "api_app_id"})
    field(out, key, first(form, key));
  out += '}';
  return out;
}

std::optional<std::string> interaction_data(std::string_view payload, std::string& error) {
  auto parsed = ordered::parse(payload, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    error = "failed to parse interaction event: the payload is not a JSON object";
    return std::nullopt;
  }
  return go_json(parsed);
}

std::optional<events_api_request> read_events_api(std::string_view body, std::string& error) {
  auto parsed = ordered::parse(body, nullptr, false);
  if (parsed.is_discarded() || !parsed.is_object()) {
    error = "failed to extract event: the body is not a JSON object";
    return std::nullopt;
  }
  events_api_request out;
  if (!string_member(parsed, "token", out.token) || !string_member(parsed, "type", out.type)
      || !string_member(parsed, "challenge", out.challenge)) {
    error = "failed to extract event: token, type and challenge must be strings";
    return std::nullopt;
  }
  if (out.type != "event_callback")
    return out;
  auto event = parsed.find("event");
  std::string inner_type;
  if (event == parsed.end() || !event->is_object() || !string_member(*event, "type", inner_type)
      || inner_type.empty()) {
    error = "failed to extract event: an event_callback needs an event object with a type";
    return std::nullopt;
  }
  out.data = "{\"type\":";
  dsl::append_go_json_string(out.data, inner_type);
  out.data += ",\"Data\":";
  out.data += go_json(*event);
  out.data += '}';
  return out;
}

} // namespace ganglion::slack::detail
