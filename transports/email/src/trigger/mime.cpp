#include "trigger/mime.hpp"

#include <algorithm>

namespace ganglion::email::detail {

namespace {

constexpr std::string_view upper_hex = "0123456789ABCDEF";
constexpr std::size_t line_max = 76;
/// `=?UTF-8?q?` … `?=` around at most this many characters: 75 in all.
constexpr std::size_t word_content_max = 75 - 10 - 2;

bool needs_q(std::string_view s) {
  for (unsigned char b : s)
    if ((b < ' ' || b > '~') && b != '\t')
      return true;
  return false;
}

void append_hex(std::string& out, unsigned char b) {
  out += '=';
  out += upper_hex[b >> 4];
  out += upper_hex[b & 0x0f];
}

std::size_t q_length(unsigned char b) {
  return (b == ' ' || (b >= '!' && b <= '~' && b != '=' && b != '?' && b != '_')) ? 1 : 3;
}

void append_q(std::string& out, unsigned char b) {
  if (b == ' ')
    out += '_';
  else if (q_length(b) == 1)
    out += static_cast<char>(b);
  else
    append_hex(out, b);
}

/// The length of the UTF-8 sequence starting at `s[i]` (1 for a byte that starts none).
std::size_t sequence_length(std::string_view s, std::size_t i) {
  auto b = static_cast<unsigned char>(s[i]);
  std::size_t n = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 1;
  return i + n <= s.size() ? n : 1;
}

bool is_blank(char b) {
  return b == ' ' || b == '\t';
}

} // namespace

std::string q_encode(std::string_view value) {
  if (!needs_q(value))
    return std::string{value};
  std::string out = "=?UTF-8?q?";
  std::size_t used = 0;
  for (std::size_t i = 0; i < value.size();) {
    auto n = sequence_length(value, i);
    std::size_t encoded = 0;
    for (std::size_t k = 0; k < n; ++k)
      encoded += q_length(static_cast<unsigned char>(value[i + k]));
    if (used + encoded > word_content_max) {
      out += "?= =?UTF-8?q?";
      used = 0;
    }
    for (std::size_t k = 0; k < n; ++k)
      append_q(out, static_cast<unsigned char>(value[i + k]));
    used += encoded;
    i += n;
  }
  return out + "?=";
}

std::string header_line(std::string_view name, std::string_view value) {
  std::string out{name};
  out += ": ";
  auto left = static_cast<std::ptrdiff_t>(line_max - name.size() - 2);
  while (static_cast<std::ptrdiff_t>(value.size()) > left) {
    auto limit = static_cast<std::size_t>(std::max<std::ptrdiff_t>(left, 1));
    auto space = value.substr(0, limit).rfind(' ');
    if (space == std::string_view::npos || space == 0)
      space = value.find(' ', limit);
    if (space == std::string_view::npos)
      break;
    out.append(value.substr(0, space));
    out += "\r\n ";
    value.remove_prefix(space + 1);
    left = 75;
  }
  out.append(value);
  out += "\r\n";
  return out;
}

std::string quoted_printable(std::string_view text) {
  std::string out;
  std::string line;
  auto flush_line = [&] {
    out += line;
    line.clear();
  };
  auto soft_break = [&] {
    line += "=\r\n";
    flush_line();
  };
  auto encode = [&](unsigned char b) {
    if (line_max - 1 - line.size() < 3)
      soft_break();
    append_hex(line, b);
  };
  auto encode_trailing_blank = [&] {
    if (!line.empty() && is_blank(line.back())) {
      auto b = static_cast<unsigned char>(line.back());
      line.pop_back();
      encode(b);
    }
  };
  bool after_cr = false;
  for (unsigned char b : text) {
    if (b == '\n' || b == '\r') {
      if (after_cr && b == '\n') {
        after_cr = false;
        continue;
      }
      after_cr = b == '\r';
      encode_trailing_blank();
      line += "\r\n";
      flush_line();
      continue;
    }
    after_cr = false;
    if ((b >= '!' && b <= '~' && b != '=') || is_blank(static_cast<char>(b))) {
      if (line.size() == line_max - 1)
        soft_break();
      line += static_cast<char>(b);
    } else {
      encode(b);
    }
  }
  encode_trailing_blank();
  flush_line();
  return out;
}

} // namespace ganglion::email::detail
