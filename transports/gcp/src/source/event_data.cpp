#include "source/event_data.hpp"

#include <charconv>
#include <cstdint>

#include "ganglion/dsl/go/go_json.hpp"
#include "ganglion/dsl/go/go_time.hpp"

namespace ganglion::gcp::detail {

namespace {

constexpr const char* go_zero_time = "0001-01-01 00:00:00 +0000 UTC";

bool digits(std::string_view text, std::size_t at, std::size_t n, int& out) {
  if (at + n > text.size())
    return false;
  auto r = std::from_chars(text.data() + at, text.data() + at + n, out);
  return r.ec == std::errc{} && r.ptr == text.data() + at + n;
}

/// RFC 3339 (`YYYY-MM-DDTHH:MM:SS[.f{1,9}](Z|±HH:MM)`) as nanoseconds since the epoch.
std::optional<dsl::go_time_point> parse_rfc3339(std::string_view t) {
  using namespace std::chrono;
  int y = 0, mo = 0, d = 0, h = 0, mi = 0, s = 0;
  if (!digits(t, 0, 4, y) || t.size() < 20 || t[4] != '-' || !digits(t, 5, 2, mo) || t[7] != '-'
      || !digits(t, 8, 2, d) || (t[10] != 'T' && t[10] != 't') || !digits(t, 11, 2, h)
      || t[13] != ':' || !digits(t, 14, 2, mi) || t[16] != ':' || !digits(t, 17, 2, s))
    return std::nullopt;
  std::size_t at = 19;
  std::int64_t nanos = 0;
  if (t[at] == '.') {
    std::size_t n = 0;
    for (++at; at < t.size() && t[at] >= '0' && t[at] <= '9'; ++at, ++n)
      if (n < 9)
        nanos = nanos * 10 + (t[at] - '0');
    if (n == 0 || n > 9)
      return std::nullopt;
    for (; n < 9; ++n)
      nanos *= 10;
  }
  int offset_minutes = 0;
  if (at < t.size() && (t[at] == 'Z' || t[at] == 'z')) {
    ++at;
  } else {
    int oh = 0, om = 0;
    if (at + 6 != t.size() || (t[at] != '+' && t[at] != '-') || !digits(t, at + 1, 2, oh)
        || t[at + 3] != ':' || !digits(t, at + 4, 2, om))
      return std::nullopt;
    offset_minutes = (t[at] == '-' ? -1 : 1) * (oh * 60 + om);
    at += 6;
  }
  year_month_day date{year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}};
  if (at != t.size() || !date.ok() || h > 23 || mi > 59 || s > 59)
    return std::nullopt;
  return dsl::go_time_point{sys_days{date}.time_since_epoch() + hours{h} + minutes{mi} + seconds{s}
                            - minutes{offset_minutes} + nanoseconds{nanos}};
}

std::uint32_t fnv32a(std::string_view text) {
  std::uint32_t hash = 2166136261u;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 16777619u;
  }
  return hash;
}

void append_field(std::string& out, std::string_view name, std::string_view value) {
  out += '"';
  out += name;
  out += "\":";
  dsl::append_go_json_string(out, value);
}

} // namespace

std::string go_publish_time(std::string_view rfc3339) {
  auto at = parse_rfc3339(rfc3339);
  if (!at)
    return go_zero_time;
  return dsl::go_time_string(*at, "UTC").value_or(go_zero_time);
}

std::optional<std::string> pubsub_event_data(const received_message& m, bool json_body,
                                             const std::map<std::string, std::string>& metadata,
                                             std::string& error) {
  std::string out;
  out.reserve(m.data.size() * 4 / 3 + 128);
  out += '{';
  append_field(out, "id", m.id);
  out += ",\"body\":";
  if (m.data.empty())
    out += "null"; // a nil []byte, and a nil json.RawMessage
  else if (!json_body)
    dsl::append_go_json_bytes(out, m.data);
  else if (!dsl::append_go_json_body(out, m.data, "the message", error))
    return std::nullopt;
  out += ",\"attributes\":";
  if (m.attributes.empty())
    out += "null";
  else
    dsl::append_go_json_object(out, m.attributes);
  out += ',';
  append_field(out, "publishTime", go_publish_time(m.publish_time));
  dsl::append_go_json_omitempty(out, "metadata", metadata);
  out += '}';
  return out;
}

std::string subscription_id(const event_spec& s, std::string_view event_name,
                            const std::optional<std::string>& filter_expression) {
  if (!s.subscription_id.empty())
    return s.subscription_id;
  std::string json = "{";
  append_field(json, "projectID", s.project_id);
  json += ',';
  append_field(json, "topicProjectID", s.topic.empty() ? s.topic_project_id : s.topic_project());
  json += ',';
  append_field(json, "topic", s.topic);
  json += ',';
  append_field(json, "subscriptionID", "");
  if (s.credential_secret) {
    json += ",\"credentialSecret\":{";
    if (!s.credential_secret->name.empty()) {
      append_field(json, "name", s.credential_secret->name);
      json += ',';
    }
    append_field(json, "key", s.credential_secret->key);
    json += '}';
  }
  if (s.delete_subscription_on_finish)
    json += ",\"deleteSubscriptionOnFinish\":true";
  if (s.json_body)
    json += ",\"jsonBody\":true";
  dsl::append_go_json_omitempty(json, "metadata", s.metadata);
  if (filter_expression) {
    json += ",\"filter\":{";
    if (!filter_expression->empty())
      append_field(json, "expression", *filter_expression);
    json += '}';
  }
  json += '}';
  std::string input{event_name};
  input += json;
  return std::string{event_name} + "-" + std::to_string(fnv32a(input));
}

} // namespace ganglion::gcp::detail
