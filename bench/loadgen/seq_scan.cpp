#include "seq_scan.hpp"

#include <charconv>

namespace ganglion::loadgen {

namespace {

bool is_space(char c) noexcept {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/// Skips a `"` or, when the key was escaped, a `\"`; false when neither is at `at`.
bool skip_quote(std::string_view s, std::size_t& at, bool escaped) noexcept {
  if (escaped) {
    if (s.substr(at, 2) != "\\\"")
      return false;
    at += 2;
    return true;
  }
  if (at >= s.size() || s[at] != '"')
    return false;
  ++at;
  return true;
}

/// The number after the key whose closing quote ends just before `at`, if the text continues
/// with whitespace, a colon, whitespace and digits (optionally quoted).
std::optional<std::uint64_t> value_after_key(std::string_view s, std::size_t at,
                                             bool escaped) noexcept {
  while (at < s.size() && is_space(s[at]))
    ++at;
  if (at >= s.size() || s[at] != ':')
    return std::nullopt;
  ++at;
  while (at < s.size() && is_space(s[at]))
    ++at;
  skip_quote(s, at, escaped);
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(s.data() + at, s.data() + s.size(), value);
  if (ec != std::errc{})
    return std::nullopt;
  return value;
}

} // namespace

std::optional<std::uint64_t> find_seq(std::string_view body) noexcept {
  constexpr std::string_view key = "seq";
  for (auto at = body.find(key); at != std::string_view::npos; at = body.find(key, at + 1)) {
    if (at == 0 || body[at - 1] != '"')
      continue;
    bool escaped = at >= 2 && body[at - 2] == '\\';
    auto after = at + key.size();
    if (!skip_quote(body, after, escaped))
      continue;
    if (auto value = value_after_key(body, after, escaped))
      return value;
  }
  return std::nullopt;
}

} // namespace ganglion::loadgen
