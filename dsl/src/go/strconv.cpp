#include "go/strconv.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace ganglion::dsl::go {

namespace {

constexpr char hex_digits[] = "0123456789abcdef";

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size())
    return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    char c = a[i];
    if (c >= 'A' && c <= 'Z')
      c = static_cast<char>(c - 'A' + 'a');
    if (c != b[i])
      return false;
  }
  return true;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

bool is_hex_digit(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// Go's readFloat grammar for base 10: digits [. digits] [e [+-] digits], at least one digit.
bool valid_decimal(std::string_view s) {
  std::size_t i = 0;
  bool digits = false;
  while (i < s.size() && is_digit(s[i])) {
    ++i;
    digits = true;
  }
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && is_digit(s[i])) {
      ++i;
      digits = true;
    }
  }
  if (!digits)
    return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-'))
      ++i;
    if (i == s.size() || !is_digit(s[i]))
      return false;
    while (i < s.size() && is_digit(s[i]))
      ++i;
  }
  return i == s.size();
}

// Base 16 after the 0x prefix: hex digits [. hex digits] p [+-] digits; `_` allowed.
bool valid_hex(std::string_view s) {
  std::size_t i = 0;
  bool digits = false;
  auto mantissa = [&] {
    while (i < s.size() && (is_hex_digit(s[i]) || s[i] == '_')) {
      digits |= s[i] != '_';
      ++i;
    }
  };
  mantissa();
  if (i < s.size() && s[i] == '.') {
    ++i;
    mantissa();
  }
  if (!digits || i == s.size() || (s[i] != 'p' && s[i] != 'P'))
    return false;
  ++i;
  if (i < s.size() && (s[i] == '+' || s[i] == '-'))
    ++i;
  if (i == s.size() || !is_digit(s[i]))
    return false;
  while (i < s.size() && (is_digit(s[i]) || s[i] == '_'))
    ++i;
  return i == s.size();
}

// Go's underscoreOK: each `_` stands between digits, or between a base prefix and a digit.
bool underscores_ok(std::string_view s) {
  char saw = '^';
  std::size_t i = 0;
  bool hex = false;
  if (s.size() >= 2 && s[0] == '0'
      && (s[1] == 'b' || s[1] == 'B' || s[1] == 'o' || s[1] == 'O' || s[1] == 'x'
          || s[1] == 'X')) {
    i = 2;
    saw = '0';
    hex = s[1] == 'x' || s[1] == 'X';
  }
  for (; i < s.size(); ++i) {
    if (is_digit(s[i]) || (hex && is_hex_digit(s[i]))) {
      saw = '0';
      continue;
    }
    if (s[i] == '_') {
      if (saw != '0')
        return false;
      saw = '_';
      continue;
    }
    if (saw == '_')
      return false;
    saw = '!';
  }
  return saw != '_';
}

std::string without_underscores(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s)
    if (c != '_')
      out.push_back(c);
  return out;
}

parsed_float with_strtod(std::string text, bool negative) {
  errno = 0;
  double v = std::strtod(text.c_str(), nullptr);
  bool overflow = errno == ERANGE && std::isinf(v);
  return {negative ? -v : v, !overflow};
}

// Decodes one UTF-8 sequence at text[i] like Go's utf8.DecodeRuneInString; size 1 and
// ok = false for an invalid byte.
struct decoded_rune {
  char32_t rune = 0;
  std::size_t size = 1;
  bool ok = false;
};

decoded_rune decode_rune(std::string_view text, std::size_t i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[i + k]); };
  unsigned char b0 = byte(0);
  if (b0 < 0x80)
    return {b0, 1, true};
  std::size_t n = 0;
  char32_t r = 0;
  unsigned char lo = 0x80, hi = 0xBF;
  if (b0 >= 0xC2 && b0 <= 0xDF) {
    n = 2;
    r = b0 & 0x1F;
  } else if (b0 >= 0xE0 && b0 <= 0xEF) {
    n = 3;
    r = b0 & 0x0F;
    if (b0 == 0xE0)
      lo = 0xA0;
    else if (b0 == 0xED)
      hi = 0x9F;
  } else if (b0 >= 0xF0 && b0 <= 0xF4) {
    n = 4;
    r = b0 & 0x07;
    if (b0 == 0xF0)
      lo = 0x90;
    else if (b0 == 0xF4)
      hi = 0x8F;
  } else {
    return {};
  }
  if (i + n > text.size())
    return {};
  for (std::size_t k = 1; k < n; ++k) {
    unsigned char b = byte(k);
    if (k == 1 ? (b < lo || b > hi) : (b < 0x80 || b > 0xBF))
      return {};
    r = (r << 6) | (b & 0x3F);
  }
  return {r, n, true};
}

std::size_t rune_size(std::string_view text, std::size_t i) {
  return decode_rune(text, i).size;
}

void append_utf8(std::string& out, char32_t r) {
  if (r < 0x80) {
    out.push_back(static_cast<char>(r));
  } else if (r < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (r >> 6)));
    out.push_back(static_cast<char>(0x80 | (r & 0x3F)));
  } else if (r < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (r >> 12)));
    out.push_back(static_cast<char>(0x80 | ((r >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (r & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (r >> 18)));
    out.push_back(static_cast<char>(0x80 | ((r >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((r >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (r & 0x3F)));
  }
}

char32_t hex4(std::string_view s) {
  char32_t v = 0;
  for (char c : s.substr(0, 4)) {
    v <<= 4;
    if (is_digit(c))
      v |= static_cast<char32_t>(c - '0');
    else if (c >= 'a' && c <= 'f')
      v |= static_cast<char32_t>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      v |= static_cast<char32_t>(c - 'A' + 10);
  }
  return v;
}

} // namespace

std::optional<bool> parse_bool(std::string_view text) {
  if (text == "1" || text == "t" || text == "T" || text == "TRUE" || text == "true"
      || text == "True")
    return true;
  if (text == "0" || text == "f" || text == "F" || text == "FALSE" || text == "false"
      || text == "False")
    return false;
  return std::nullopt;
}

parsed_float parse_float(std::string_view text) {
  bool negative = false;
  std::string_view s = text;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
    if (iequals(s, "inf") || iequals(s, "infinity"))
      return {negative ? -std::numeric_limits<double>::infinity()
                       : std::numeric_limits<double>::infinity(),
              true};
  } else {
    if (iequals(s, "inf") || iequals(s, "infinity"))
      return {std::numeric_limits<double>::infinity(), true};
    if (iequals(s, "nan"))
      return {std::numeric_limits<double>::quiet_NaN(), true};
  }
  bool underscores = s.find('_') != std::string_view::npos;
  if (underscores && !underscores_ok(s))
    return {};
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    if (!valid_hex(s.substr(2)))
      return {};
    return with_strtod(without_underscores(s), negative);
  }
  if (underscores) {
    auto digits = without_underscores(s);
    return valid_decimal(digits) ? parse_float(negative ? "-" + digits : digits) : parsed_float{};
  }
  if (!valid_decimal(s))
    return {};
  double v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range)
    return with_strtod(std::string(s), negative);
  if (ec != std::errc() || end != s.data() + s.size())
    return {};
  return {negative ? -v : v, true};
}

std::optional<std::int64_t> parse_int(std::string_view text) {
  bool negative = false;
  std::string_view s = text;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty() || (s.find('_') != std::string_view::npos && !underscores_ok(s)))
    return std::nullopt;
  unsigned base = 10;
  std::string_view digits = s;
  if (s[0] == '0') {
    char prefix = s.size() >= 3 ? static_cast<char>(s[1] | 0x20) : '\0';
    base = prefix == 'x' ? 16 : prefix == 'b' ? 2 : 8;
    digits.remove_prefix(prefix == 'x' || prefix == 'b' || prefix == 'o' ? 2 : 1);
  }
  const std::uint64_t limit = negative ? std::uint64_t{1} << 63 : (std::uint64_t{1} << 63) - 1;
  std::uint64_t n = 0;
  for (char c : digits) {
    if (c == '_')
      continue;
    unsigned digit = is_digit(c)                   ? static_cast<unsigned>(c - '0')
                     : is_hex_digit(c) ? static_cast<unsigned>((c | 0x20) - 'a' + 10)
                                       : base;
    if (digit >= base || n > (limit - digit) / base)
      return std::nullopt;
    n = n * base + digit;
  }
  if (negative)
    return n == std::uint64_t{1} << 63 ? std::numeric_limits<std::int64_t>::min()
                                       : -static_cast<std::int64_t>(n);
  return static_cast<std::int64_t>(n);
}

std::string format_float(double value) {
  if (std::isnan(value))
    return "NaN";
  if (std::isinf(value))
    return value > 0 ? "+Inf" : "-Inf";
  char buf[400];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), value, std::chars_format::fixed);
  if (ec != std::errc())
    return {};
  return std::string(buf, end);
}

void append_json_string(std::string& out, std::string_view text) {
  out.push_back('"');
  for (std::size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c < 0x20) {
      out.push_back('\\');
      switch (c) {
        case '\b': out.push_back('b'); break;
        case '\f': out.push_back('f'); break;
        case '\n': out.push_back('n'); break;
        case '\r': out.push_back('r'); break;
        case '\t': out.push_back('t'); break;
        default:
          out += "u00";
          out.push_back(hex_digits[c >> 4]);
          out.push_back(hex_digits[c & 0xF]);
      }
      ++i;
    } else if (c == '<' || c == '>' || c == '&') {
      out += "\\u00";
      out.push_back(hex_digits[c >> 4]);
      out.push_back(hex_digits[c & 0xF]);
      ++i;
    } else if (c == '\\' || c == '"') {
      out.push_back('\\');
      out.push_back(static_cast<char>(c));
      ++i;
    } else if (c < 0x80) {
      out.push_back(static_cast<char>(c));
      ++i;
    } else {
      auto r = decode_rune(text, i);
      if (!r.ok)
        out += "\\ufffd";
      else if (r.rune == 0x2028 || r.rune == 0x2029)
        out += r.rune == 0x2028 ? "\\u2028" : "\\u2029";
      else
        out.append(text.substr(i, r.size));
      i += r.size;
    }
  }
  out.push_back('"');
}

void append_sjson_string(std::string& out, std::string_view text) {
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (c < ' ' || c > 0x7f || c == '"' || c == '\\') {
      append_json_string(out, text);
      return;
    }
  }
  out.push_back('"');
  out.append(text);
  out.push_back('"');
}

bool wildcard_match(std::string_view text, std::string_view pattern) {
  std::size_t s = 0, p = 0;
  std::size_t star_p = std::string_view::npos, star_s = 0;
  while (s < text.size()) {
    if (p < pattern.size()) {
      if (pattern[p] == '*') {
        while (p < pattern.size() && pattern[p] == '*')
          ++p;
        star_p = p;
        star_s = s;
        continue;
      }
      if (pattern[p] == '?') {
        s += rune_size(text, s);
        ++p;
        continue;
      }
      std::size_t lit = p;
      if (pattern[p] == '\\')
        ++lit;
      if (lit < pattern.size()) {
        std::size_t n = rune_size(pattern, lit);
        if (text.substr(s, n) == pattern.substr(lit, n)) {
          s += n;
          p = lit + n;
          continue;
        }
      }
    }
    if (star_p == std::string_view::npos)
      return false;
    star_s += rune_size(text, star_s);
    s = star_s;
    p = star_p;
  }
  while (p < pattern.size() && pattern[p] == '*')
    ++p;
  return p == pattern.size();
}

std::string json_unescape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (static_cast<unsigned char>(c) < ' ')
      return out;
    if (c != '\\') {
      out.push_back(c);
      continue;
    }
    if (++i >= text.size())
      return out;
    switch (text[i]) {
      case '\\': out.push_back('\\'); break;
      case '/': out.push_back('/'); break;
      case 'b': out.push_back('\b'); break;
      case 'f': out.push_back('\f'); break;
      case 'n': out.push_back('\n'); break;
      case 'r': out.push_back('\r'); break;
      case 't': out.push_back('\t'); break;
      case '"': out.push_back('"'); break;
      case 'u': {
        if (i + 5 > text.size())
          return out;
        char32_t r = hex4(text.substr(i + 1));
        i += 4;
        if (r >= 0xD800 && r < 0xE000) {
          char32_t combined = 0xFFFD;
          if (r < 0xDC00 && i + 6 < text.size() && text[i + 1] == '\\' && text[i + 2] == 'u') {
            char32_t lo = hex4(text.substr(i + 3));
            if (lo >= 0xDC00 && lo < 0xE000)
              combined = 0x10000 + ((r - 0xD800) << 10) + (lo - 0xDC00);
            i += 6;
          }
          r = combined;
        }
        append_utf8(out, r);
        break;
      }
      default:
        return out;
    }
  }
  return out;
}

} // namespace ganglion::dsl::go
