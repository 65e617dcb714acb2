#include "params/parameters_event.hpp"

#include <chrono>
#include <optional>

#include <fmt/format.h>

#include "ganglion/dsl/go/codec.hpp"
#include "go/strconv.hpp"

namespace ganglion::dsl {

namespace {

std::optional<int> digits(std::string_view s, std::size_t at, std::size_t n) {
  if (at + n > s.size())
    return std::nullopt;
  int v = 0;
  for (std::size_t i = at; i < at + n; ++i) {
    if (s[i] < '0' || s[i] > '9')
      return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

// RFC 3339 text → the same instant in UTC as Go's time.RFC3339 layout (seconds, `Z`), which is
// how metav1.Time marshals; nullopt when the text is not RFC 3339.
std::optional<std::string> utc_seconds(std::string_view t) {
  using namespace std::chrono;
  auto year = digits(t, 0, 4), month = digits(t, 5, 2), day = digits(t, 8, 2);
  auto hour = digits(t, 11, 2), minute = digits(t, 14, 2), second = digits(t, 17, 2);
  if (!year || !month || !day || !hour || !minute || !second || t[4] != '-' || t[7] != '-'
      || (t[10] != 'T' && t[10] != 't') || t[13] != ':' || t[16] != ':')
    return std::nullopt;
  std::size_t i = 19;
  if (i < t.size() && t[i] == '.') {
    ++i;
    while (i < t.size() && t[i] >= '0' && t[i] <= '9')
      ++i;
  }
  int offset_minutes = 0;
  if (i < t.size() && (t[i] == 'Z' || t[i] == 'z')) {
    ++i;
  } else {
    auto oh = digits(t, i + 1, 2), om = digits(t, i + 4, 2);
    if (i >= t.size() || (t[i] != '+' && t[i] != '-') || !oh || !om || t[i + 3] != ':')
      return std::nullopt;
    offset_minutes = (*oh * 60 + *om) * (t[i] == '-' ? -1 : 1);
    i += 6;
  }
  if (i != t.size())
    return std::nullopt;
  year_month_day date{std::chrono::year(*year), std::chrono::month(static_cast<unsigned>(*month)),
                      std::chrono::day(static_cast<unsigned>(*day))};
  if (!date.ok())
    return std::nullopt;
  sys_seconds instant = sys_days(date) + hours(*hour) + minutes(*minute) + seconds(*second)
                        - minutes(offset_minutes);
  auto utc_day = floor<days>(instant);
  year_month_day ymd(utc_day);
  hh_mm_ss hms(instant - utc_day);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", static_cast<int>(ymd.year()),
                     static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                     hms.hours().count(), hms.minutes().count(), hms.seconds().count());
}

void append_field(std::string& out, std::string_view name, std::string_view value) {
  out.push_back('"');
  out.append(name);
  out += "\":";
  go::append_json_string(out, value);
}

} // namespace

std::string event_context_json(const event_view& event) {
  std::string out = "{";
  append_field(out, "id", event.id);
  out.push_back(',');
  append_field(out, "source", event.source);
  out.push_back(',');
  append_field(out, "specversion", event.specversion);
  out.push_back(',');
  append_field(out, "type", event.type);
  out.push_back(',');
  append_field(out, "datacontenttype", event.datacontenttype);
  out.push_back(',');
  append_field(out, "subject", event.subject);
  out += ",\"time\":";
  if (event.time.empty())
    out += "null";
  else
    go::append_json_string(out, utc_seconds(event.time).value_or(std::string(event.time)));
  out.push_back('}');
  return out;
}

std::string whole_event_json(const event_view& event) {
  std::string out = "{\"context\":";
  out += event_context_json(event);
  out += ",\"data\":";
  if (event.data_raw.empty()) {
    out += "null";
  } else {
    out.push_back('"');
    out += base64_encode(event.data_raw);
    out.push_back('"');
  }
  out.push_back('}');
  return out;
}

} // namespace ganglion::dsl
