#include "source/event_data.hpp"

#include <fmt/format.h>

#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::amqp {

namespace {

std::string text(const amqp_bytes_t& bytes) {
  return {static_cast<const char*>(bytes.bytes), bytes.len};
}

/// Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
void civil_from_days(std::int64_t z, std::int64_t& y, unsigned& m, unsigned& d) {
  z += 719468;
  std::int64_t era = (z >= 0 ? z : z - 146096) / 146097;
  auto doe = static_cast<unsigned>(z - era * 146097);
  unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  y = static_cast<std::int64_t>(yoe) + era * 400;
  unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  unsigned mp = (5 * doy + 2) / 153;
  d = doy - (153 * mp + 2) / 5 + 1;
  m = mp < 10 ? mp + 3 : mp - 9;
  y += m <= 2 ? 1 : 0;
}

void field(std::string& out, const char* name, std::string_view value) {
  out += ",\"";
  out += name;
  out += "\":";
  dsl::append_go_json_string(out, value);
}

void field(std::string& out, const char* name, int value) {
  out += fmt::format(",\"{}\":{}", name, value);
}

} // namespace

message_fields fields_of(const amqp_envelope_t& envelope) {
  const auto& p = envelope.message.properties;
  auto has = [&](amqp_flags_t flag) { return (p._flags & flag) != 0; };
  message_fields out;
  if (has(AMQP_BASIC_CONTENT_TYPE_FLAG))
    out.content_type = text(p.content_type);
  if (has(AMQP_BASIC_CONTENT_ENCODING_FLAG))
    out.content_encoding = text(p.content_encoding);
  if (has(AMQP_BASIC_DELIVERY_MODE_FLAG))
    out.delivery_mode = p.delivery_mode;
  if (has(AMQP_BASIC_PRIORITY_FLAG))
    out.priority = p.priority;
  if (has(AMQP_BASIC_CORRELATION_ID_FLAG))
    out.correlation_id = text(p.correlation_id);
  if (has(AMQP_BASIC_REPLY_TO_FLAG))
    out.reply_to = text(p.reply_to);
  if (has(AMQP_BASIC_EXPIRATION_FLAG))
    out.expiration = text(p.expiration);
  if (has(AMQP_BASIC_MESSAGE_ID_FLAG))
    out.message_id = text(p.message_id);
  if (has(AMQP_BASIC_TIMESTAMP_FLAG))
    out.timestamp = static_cast<std::int64_t>(p.timestamp);
  if (has(AMQP_BASIC_TYPE_FLAG))
    out.type = text(p.type);
  if (has(AMQP_BASIC_APP_ID_FLAG))
    out.app_id = text(p.app_id);
  out.exchange = text(envelope.exchange);
  out.routing_key = text(envelope.routing_key);
  return out;
}

std::string go_time_string(std::optional<std::int64_t> seconds) {
  if (!seconds)
    return "0001-01-01 00:00:00 +0000 UTC";
  std::int64_t days = *seconds / 86400;
  std::int64_t rest = *seconds % 86400;
  if (rest < 0) {
    rest += 86400;
    --days;
  }
  std::int64_t year = 0;
  unsigned month = 0, day = 0;
  civil_from_days(days, year, month, day);
  auto y = year < 0 ? fmt::format("-{:04}", -year) : fmt::format("{:04}", year);
  return fmt::format("{}-{:02}-{:02} {:02}:{:02}:{:02} +0000 UTC", y, month, day, rest / 3600,
                     rest / 60 % 60, rest % 60);
}

std::optional<std::string> amqp_event_data(const message_fields& f, std::string_view body,
                                           bool json_body,
                                           const std::map<std::string, std::string>& metadata,
                                           std::string& error) {
  std::string out;
  out.reserve(body.size() * 4 / 3 + 320);
  out += R"({"contentType":)";
  dsl::append_go_json_string(out, f.content_type);
  field(out, "contentEncoding", f.content_encoding);
  field(out, "deliveryMode", f.delivery_mode);
  field(out, "priority", f.priority);
  field(out, "correlationId", f.correlation_id);
  field(out, "replyTo", f.reply_to);
  field(out, "expiration", f.expiration);
  field(out, "messageId", f.message_id);
  field(out, "timestamp", go_time_string(f.timestamp));
  field(out, "type", f.type);
  field(out, "appId", f.app_id);
  field(out, "exchange", f.exchange);
  field(out, "routingKey", f.routing_key);
  out += R"(,"body":)";
  if (!json_body)
    dsl::append_go_json_bytes(out, body);
  else if (!dsl::append_go_json_body(out, body, "the message body", error))
    return std::nullopt;
  dsl::append_go_json_omitempty(out, "metadata", metadata);
  out += '}';
  return out;
}

} // namespace ganglion::amqp
