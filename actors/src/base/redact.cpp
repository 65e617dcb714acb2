#include "ganglion/core/redact.hpp"

namespace ganglion::core {

namespace {

constexpr std::string_view mask = "***";

/// Ends a URL's authority: a path, query or fragment, or what ends a URL in free text.
bool ends_authority(char c) noexcept {
  auto u = static_cast<unsigned char>(c);
  return u <= 0x20 || u == 0x7f || c == '/' || c == '?' || c == '#' || c == '"' || c == '\''
         || c == '<' || c == '>' || c == '`';
}

/// Starts the word an scp-style `user:password@` belongs to.
bool ends_word(char c) noexcept {
  return ends_authority(c) || c == '(' || c == '[' || c == '{' || c == ',' || c == ';'
         || c == '=';
}

bool host_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.'
         || c == '-' || c == '_';
}

/// True when `host:` follows the `@` at `at`: the shape of an scp-style address.
bool scp_host_follows(std::string_view text, std::size_t at) {
  auto i = at + 1;
  if (i < text.size() && text[i] == '[') {
    auto close = text.find(']', i);
    if (close == std::string_view::npos)
      return false;
    i = close + 1;
  } else {
    auto start = i;
    while (i < text.size() && host_char(text[i]))
      ++i;
    if (i == start)
      return false;
  }
  return i < text.size() && text[i] == ':';
}

} // namespace

bool redact_url_userinfo_into(std::string_view text, std::string& out) {
  constexpr auto npos = std::string_view::npos;
  auto at = text.find('@');
  if (at == npos)
    return false;
  std::string result;
  bool changed = false;
  std::size_t copied = 0; // text[0, copied) is in `result` already
  auto replace = [&](std::size_t from, std::size_t to) {
    if (!changed) {
      result.reserve(text.size());
      changed = true;
    }
    result.append(text.substr(copied, from - copied));
    result.append(mask);
    copied = to;
  };
  std::size_t pos = 0;
  auto scheme = text.find("://");
  while (at != npos) {
    if (scheme != npos && scheme < pos)
      scheme = text.find("://", pos);
    if (scheme != npos && scheme < at) {
      auto start = scheme + 3;
      auto end = start;
      while (end < text.size() && !ends_authority(text[end]))
        ++end;
      auto last = text.substr(start, end - start).rfind('@');
      if (last != npos && last > 0 && start >= copied) {
        replace(start, start + last);
        pos = start + last + 1;
      } else {
        pos = start;
      }
    } else {
      auto begin = at;
      while (begin > copied && !ends_word(text[begin - 1]))
        --begin;
      auto userinfo = text.substr(begin, at - begin);
      bool at_word_start = begin == 0 || ends_word(text[begin - 1]);
      if (at_word_start && userinfo.find(':') != npos && userinfo.front() != ':'
          && scp_host_follows(text, at))
        replace(begin, at);
      pos = at + 1;
    }
    at = text.find('@', pos);
  }
  if (!changed)
    return false;
  result.append(text.substr(copied));
  out = std::move(result);
  return true;
}

std::string redact_url_userinfo(std::string_view text) {
  std::string out;
  if (!redact_url_userinfo_into(text, out))
    out.assign(text);
  return out;
}

bool redact_url_userinfo_in_place(std::string& text) {
  std::string out;
  if (!redact_url_userinfo_into(text, out))
    return false;
  text = std::move(out);
  return true;
}

} // namespace ganglion::core
