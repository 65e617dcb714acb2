#include "ganglion/dsl/cron.hpp"

#include <array>
#include <charconv>
#include <vector>

#include <fmt/format.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/duration.hpp"
#include "go/time_zone.hpp"

namespace ganglion::dsl {

namespace {

constexpr std::uint64_t star_bit = std::uint64_t{1} << 63;

struct field_bounds {
  unsigned min;
  unsigned max;
  const char* const* names; // lower-case names for min..max, or nullptr
};

constexpr const char* month_names[] = {"jan", "feb", "mar", "apr", "may", "jun",
                                       "jul", "aug", "sep", "oct", "nov", "dec"};
constexpr const char* dow_names[] = {"sun", "mon", "tue", "wed", "thu", "fri", "sat"};

constexpr field_bounds minute_bounds{0, 59, nullptr};
constexpr field_bounds hour_bounds{0, 23, nullptr};
constexpr field_bounds dom_bounds{1, 31, nullptr};
constexpr field_bounds month_bounds{1, 12, month_names};
constexpr field_bounds dow_bounds{0, 6, dow_names};

std::string lower(std::string_view s) {
  std::string out{s};
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
  return out;
}

std::vector<std::string_view> split(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  for (;;) {
    auto pos = s.find(sep, start);
    parts.push_back(s.substr(start, pos - start));
    if (pos == std::string_view::npos)
      return parts;
    start = pos + 1;
  }
}

// A token and where it starts in the schedule text, for error offsets.
struct token {
  std::string_view text;
  std::size_t offset;
};

[[noreturn]] void fail(const token& at, const std::string& message) {
  throw compile_error(message, at.offset);
}

// Go's strconv.Atoi followed by robfig's negative check.
unsigned parse_number(const token& at, std::string_view s) {
  std::string_view digits = s;
  bool negative = false;
  if (!digits.empty() && (digits[0] == '+' || digits[0] == '-')) {
    negative = digits[0] == '-';
    digits.remove_prefix(1);
  }
  long long value = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size())
    fail(at, fmt::format("failed to parse int from {}", s));
  if (negative && value != 0)
    fail(at, fmt::format("negative number ({}) not allowed: {}", -value, s));
  if (value > 0xFFFFFFFFLL)
    fail(at, fmt::format("value {} out of range: {}", value, s));
  return static_cast<unsigned>(value);
}

unsigned parse_int_or_name(const token& at, std::string_view s, const field_bounds& bounds) {
  if (bounds.names) {
    auto name = lower(s);
    for (unsigned i = 0; i <= bounds.max - bounds.min; ++i)
      if (name == bounds.names[i])
        return bounds.min + i;
  }
  return parse_number(at, s);
}

std::uint64_t parse_range(const token& at, const field_bounds& bounds) {
  auto range_and_step = split(at.text, '/');
  auto low_and_high = split(range_and_step[0], '-');
  bool single = low_and_high.size() == 1;
  unsigned start = 0;
  unsigned end = 0;
  unsigned step = 1;
  std::uint64_t extra = 0;
  if (low_and_high[0] == "*" || low_and_high[0] == "?") {
    start = bounds.min;
    end = bounds.max;
    extra = star_bit;
  } else {
    start = parse_int_or_name(at, low_and_high[0], bounds);
    if (low_and_high.size() == 1)
      end = start;
    else if (low_and_high.size() == 2)
      end = parse_int_or_name(at, low_and_high[1], bounds);
    else
      fail(at, fmt::format("too many hyphens: {}", at.text));
  }
  if (range_and_step.size() == 2) {
    step = parse_number(at, range_and_step[1]);
    if (single)
      end = bounds.max;
    if (step > 1)
      extra = 0;
  } else if (range_and_step.size() > 2) {
    fail(at, fmt::format("too many slashes: {}", at.text));
  }
  if (start < bounds.min)
    fail(at, fmt::format("beginning of range ({}) below minimum ({}): {}", start, bounds.min,
                         at.text));
  if (end > bounds.max)
    fail(at, fmt::format("end of range ({}) above maximum ({}): {}", end, bounds.max, at.text));
  if (start > end)
    fail(at, fmt::format("beginning of range ({}) beyond end of range ({}): {}", start, end,
                         at.text));
  if (step == 0)
    fail(at, fmt::format("step of range should be a positive number: {}", at.text));
  std::uint64_t bits = 0;
  for (unsigned i = start; i <= end; i += step)
    bits |= std::uint64_t{1} << i;
  return bits | extra;
}

std::uint64_t parse_field(const token& field, const field_bounds& bounds) {
  std::uint64_t bits = 0;
  std::size_t offset = field.offset;
  for (auto part : split(field.text, ',')) {
    bits |= parse_range(token{part, offset}, bounds);
    offset += part.size() + 1;
  }
  return bits;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

std::vector<token> fields_of(std::string_view text, std::size_t base) {
  std::vector<token> out;
  std::size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_space(text[i]))
      ++i;
    std::size_t start = i;
    while (i < text.size() && !is_space(text[i]))
      ++i;
    if (i > start)
      out.push_back(token{text.substr(start, i - start), base + start});
  }
  return out;
}

} // namespace

cron_schedule cron_schedule::parse(std::string_view text, bool accept_descriptors) {
  cron_schedule out;
  out.text_ = std::string{text};
  if (text.empty())
    throw compile_error("empty spec string", 0);
  std::size_t base = 0;
  std::string_view spec = text;
  if (spec.starts_with("TZ=") || spec.starts_with("CRON_TZ=")) {
    auto eq = spec.find('=');
    auto space = spec.find(' ');
    if (space == std::string_view::npos)
      throw compile_error("missing schedule after the time zone", spec.size());
    out.location_ = std::string{spec.substr(eq + 1, space - eq - 1)};
    if (!detail::time_zone_exists(out.location_))
      throw compile_error(fmt::format("provided bad location {}", out.location_), eq + 1);
    base = space;
    spec = spec.substr(space);
    while (!spec.empty() && is_space(spec.front())) {
      spec.remove_prefix(1);
      ++base;
    }
  }
  if (spec.starts_with("@")) {
    if (!accept_descriptors)
      throw compile_error(fmt::format("parser does not accept descriptors: {}", spec), base);
    constexpr std::array<std::pair<std::string_view, std::string_view>, 7> descriptors{{
      {"@yearly", "0 0 1 1 *"},
      {"@annually", "0 0 1 1 *"},
      {"@monthly", "0 0 1 * *"},
      {"@weekly", "0 0 * * 0"},
      {"@daily", "0 0 * * *"},
      {"@midnight", "0 0 * * *"},
      {"@hourly", "0 * * * *"},
    }};
    for (const auto& [name, expansion] : descriptors) {
      if (spec == name) {
        // robfig's descriptors equal these expansions, star bits included.
        auto expanded = parse(expansion);
        expanded.text_ = out.text_;
        expanded.location_ = out.location_;
        return expanded;
      }
    }
    if (spec.starts_with("@every ")) {
      auto duration_text = spec.substr(7);
      auto ns = parse_go_duration(duration_text);
      if (!ns)
        throw compile_error(fmt::format("failed to parse duration {}", spec), base + 7);
      auto seconds = *ns / 1'000'000'000;
      out.every_ = std::chrono::seconds{seconds < 1 ? 1 : seconds};
      return out;
    }
    throw compile_error(fmt::format("unrecognized descriptor: {}", spec), base);
  }
  auto fields = fields_of(spec, base);
  if (fields.size() != 5) {
    std::string listed;
    for (const auto& f : fields)
      listed += (listed.empty() ? "" : " ") + std::string{f.text};
    throw compile_error(fmt::format("expected exactly 5 fields, found {}: [{}]", fields.size(),
                                    listed),
                        fields.size() > 5 ? fields[5].offset : text.size());
  }
  out.second_ = 1;
  out.minute_ = parse_field(fields[0], minute_bounds);
  out.hour_ = parse_field(fields[1], hour_bounds);
  out.dom_ = parse_field(fields[2], dom_bounds);
  out.month_ = parse_field(fields[3], month_bounds);
  out.dow_ = parse_field(fields[4], dow_bounds);
  return out;
}

namespace {

bool has(std::uint64_t bits, unsigned value) { return (bits >> value) & 1; }

} // namespace

std::optional<std::chrono::sys_seconds> cron_schedule::next(std::chrono::sys_seconds after) const {
  using namespace std::chrono;
  if (every_)
    return after + *every_;
  // robfig's SpecSchedule.Next, on the UTC calendar.
  sys_seconds t = after + seconds{1};
  bool added = false;
  auto ymd_of = [](sys_seconds tp) { return year_month_day{floor<days>(tp)}; };
  const int year_limit = static_cast<int>(ymd_of(t).year()) + 5;
  for (;;) {
    bool wrapped = false;
    if (static_cast<int>(ymd_of(t).year()) > year_limit)
      return std::nullopt;
    while (!has(month_, static_cast<unsigned>(ymd_of(t).month()))) {
      auto ymd = ymd_of(t);
      if (!added) {
        added = true;
        t = sys_days{ymd.year() / ymd.month() / 1};
        ymd = ymd_of(t);
      }
      t = sys_days{(ymd.year() / ymd.month() / 1) + months{1}};
      if (ymd_of(t).month() == January) {
        wrapped = true;
        break;
      }
    }
    if (wrapped)
      continue;
    auto day_matches = [this](sys_seconds tp) {
      auto day = floor<days>(tp);
      auto ymd = year_month_day{day};
      bool dom_match = has(dom_, static_cast<unsigned>(ymd.day()));
      bool dow_match = has(dow_, weekday{day}.c_encoding());
      if ((dom_ & star_bit) || (dow_ & star_bit))
        return dom_match && dow_match;
      return dom_match || dow_match;
    };
    while (!day_matches(t)) {
      if (!added) {
        added = true;
        t = floor<days>(t);
      }
      t = floor<days>(t) + days{1};
      if (static_cast<unsigned>(ymd_of(t).day()) == 1) {
        wrapped = true;
        break;
      }
    }
    if (wrapped)
      continue;
    auto hour_of = [](sys_seconds tp) {
      return static_cast<unsigned>(hh_mm_ss{tp - floor<days>(tp)}.hours().count());
    };
    while (!has(hour_, hour_of(t))) {
      if (!added) {
        added = true;
        t = floor<hours>(t);
      }
      t = floor<hours>(t) + hours{1};
      if (hour_of(t) == 0) {
        wrapped = true;
        break;
      }
    }
    if (wrapped)
      continue;
    auto minute_of = [](sys_seconds tp) {
      return static_cast<unsigned>(hh_mm_ss{tp - floor<days>(tp)}.minutes().count());
    };
    while (!has(minute_, minute_of(t))) {
      if (!added) {
        added = true;
        t = floor<minutes>(t);
      }
      t = floor<minutes>(t) + minutes{1};
      if (minute_of(t) == 0) {
        wrapped = true;
        break;
      }
    }
    if (wrapped)
      continue;
    auto second_of = [](sys_seconds tp) {
      return static_cast<unsigned>(hh_mm_ss{tp - floor<days>(tp)}.seconds().count());
    };
    while (!has(second_, second_of(t))) {
      added = true;
      t += seconds{1};
      if (second_of(t) == 0) {
        wrapped = true;
        break;
      }
    }
    if (wrapped)
      continue;
    return t;
  }
}

} // namespace ganglion::dsl
