// The plain rules of ganglion/dsl/kind/rules.hpp that every layer reading a manifest uses (Go's
// ParseBool and ParseFloat, a clock time, presence, a required value); the trigger-parameter
// rules are validate/'s (validate_common.cpp).

#include <optional>

#include "ganglion/dsl/kind/rules.hpp"
#include "go/strconv.hpp"

namespace ganglion::dsl::detail {

bool go_parse_bool(std::string_view text) {
  return go::parse_bool(text).has_value();
}

bool go_parse_float(std::string_view text) {
  return go::parse_float(text).ok;
}

std::optional<double> parse_clock_time(std::string_view text) {
  auto digits = [&](std::size_t min, std::size_t max, int& out) {
    std::size_t n = 0;
    out = 0;
    while (n < max && n < text.size() && text[n] >= '0' && text[n] <= '9')
      out = out * 10 + (text[n++] - '0');
    if (n < min)
      return false;
    text.remove_prefix(n);
    return true;
  };
  auto colon = [&] {
    if (text.empty() || text.front() != ':')
      return false;
    text.remove_prefix(1);
    return true;
  };
  int hour = 0;
  int minute = 0;
  int second = 0;
  if (!digits(1, 2, hour) || !colon() || !digits(2, 2, minute) || !colon()
      || !digits(2, 2, second))
    return std::nullopt;
  double fraction = 0;
  if (!text.empty() && (text.front() == '.' || text.front() == ',')) {
    text.remove_prefix(1);
    double scale = 0.1;
    std::size_t n = 0;
    for (; n < text.size() && text[n] >= '0' && text[n] <= '9'; ++n, scale /= 10)
      fraction += (text[n] - '0') * scale;
    if (n == 0)
      return std::nullopt;
    text.remove_prefix(n);
  }
  if (!text.empty() || hour > 23 || minute > 59 || second > 59)
    return std::nullopt;
  return hour * 3600.0 + minute * 60.0 + second + fraction;
}

bool present(const load_context& cx, const std::string& path) {
  return cx.doc.locations.contains(path);
}

bool require(const std::string& value, const std::string& path, std::string_view what,
             const load_context& cx) {
  if (!value.empty())
    return true;
  cx.error(path, std::string{what} + " is required");
  return false;
}

} // namespace ganglion::dsl::detail
