#include "ganglion/dsl/duration.hpp"

#include <array>
#include <utility>

namespace ganglion::dsl {

namespace {

constexpr std::uint64_t overflow_limit = std::uint64_t{1} << 63;

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Go's leadingInt: consumes digits; false on overflow.
bool leading_int(std::string_view& s, std::uint64_t& value) {
  std::size_t i = 0;
  value = 0;
  for (; i < s.size() && is_digit(s[i]); ++i) {
    if (value > overflow_limit / 10)
      return false;
    value = value * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (value > overflow_limit)
      return false;
  }
  s.remove_prefix(i);
  return true;
}

// Go's leadingFraction: consumes digits, ignoring those that no longer fit.
void leading_fraction(std::string_view& s, std::uint64_t& value, double& scale) {
  std::size_t i = 0;
  value = 0;
  scale = 1;
  bool overflow = false;
  for (; i < s.size() && is_digit(s[i]); ++i) {
    if (overflow)
      continue;
    if (value > (overflow_limit - 1) / 10) {
      overflow = true;
      continue;
    }
    std::uint64_t next = value * 10 + static_cast<std::uint64_t>(s[i] - '0');
    if (next > overflow_limit) {
      overflow = true;
      continue;
    }
    value = next;
    scale *= 10;
  }
  s.remove_prefix(i);
}

std::optional<std::uint64_t> unit_nanoseconds(std::string_view unit) {
  static constexpr std::array<std::pair<std::string_view, std::uint64_t>, 8> units{{
    {"ns", 1},
    {"us", 1'000},
    {"\xC2\xB5s", 1'000}, // U+00B5 micro sign
    {"\xCE\xBCs", 1'000}, // U+03BC Greek small letter mu
    {"ms", 1'000'000},
    {"s", 1'000'000'000},
    {"m", 60'000'000'000},
    {"h", 3'600'000'000'000},
  }};
  for (const auto& [name, ns] : units)
    if (name == unit)
      return ns;
  return std::nullopt;
}

} // namespace

std::optional<std::int64_t> parse_go_duration(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '-' || s[0] == '+')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s == "0")
    return 0;
  if (s.empty())
    return std::nullopt;
  std::uint64_t total = 0;
  while (!s.empty()) {
    if (!(s[0] == '.' || is_digit(s[0])))
      return std::nullopt;
    std::size_t before = s.size();
    std::uint64_t whole = 0;
    if (!leading_int(s, whole))
      return std::nullopt;
    bool has_whole = before != s.size();
    bool has_fraction = false;
    std::uint64_t fraction = 0;
    double scale = 1;
    if (!s.empty() && s[0] == '.') {
      s.remove_prefix(1);
      before = s.size();
      leading_fraction(s, fraction, scale);
      has_fraction = before != s.size();
    }
    if (!has_whole && !has_fraction)
      return std::nullopt;
    std::size_t i = 0;
    while (i < s.size() && s[i] != '.' && !is_digit(s[i]))
      ++i;
    if (i == 0)
      return std::nullopt;
    auto unit = unit_nanoseconds(s.substr(0, i));
    s.remove_prefix(i);
    if (!unit)
      return std::nullopt;
    if (whole > overflow_limit / *unit)
      return std::nullopt;
    whole *= *unit;
    if (fraction > 0) {
      whole += static_cast<std::uint64_t>(static_cast<double>(fraction)
                                          * (static_cast<double>(*unit) / scale));
      if (whole > overflow_limit)
        return std::nullopt;
    }
    total += whole;
    if (total > overflow_limit)
      return std::nullopt;
  }
  if (negative)
    return static_cast<std::int64_t>(0 - total);
  if (total > overflow_limit - 1)
    return std::nullopt;
  return static_cast<std::int64_t>(total);
}

} // namespace ganglion::dsl
