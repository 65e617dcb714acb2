// Template values: Go's fmt printing, truth, type names, quoting and JSON encoding.

#include <charconv>
#include <cmath>
#include <ctime>
#include <stdexcept>

#include <fmt/format.h>

#include "ganglion/dsl/tmpl/go_template.hpp"
#include "tmpl/go_template_ast.hpp"
#include "go/strconv.hpp"

namespace ganglion::dsl {

namespace tmpl {

namespace {

std::string chars(double f, std::chars_format format) {
  char buf[64];
  auto res = std::to_chars(buf, buf + sizeof buf, f, format);
  return std::string(buf, res.ptr);
}

// The decimal exponent of the shortest representation of a finite non-zero f.
int decimal_exponent(double f) {
  auto sci = chars(f, std::chars_format::scientific);
  return std::stoi(sci.substr(sci.find('e') + 1));
}

std::string format_time(std::int64_t nanos) {
  std::time_t secs = static_cast<std::time_t>(nanos / 1000000000);
  std::int64_t frac = nanos % 1000000000;
  if (frac < 0) {
    frac += 1000000000;
    --secs;
  }
  std::tm tm{};
  gmtime_r(&secs, &tm);
  std::string out = fmt::format("{:04}-{:02}-{:02} {:02}:{:02}:{:02}", tm.tm_year + 1900,
                                tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
  if (frac != 0) {
    std::string digits = fmt::format(".{:09}", frac);
    while (digits.back() == '0')
      digits.pop_back();
    out += digits;
  }
  return out + " +0000 UTC";
}

// Encodes a string for JSON as encoding/json does (HTML escaping optional).
void append_json(std::string& out, std::string_view s, bool escape_html) {
  if (escape_html) {
    go::append_json_string(out, s);
    return;
  }
  out += '"';
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20) {
      out += fmt::format("\\u{:04x}", c);
    } else if (c == 0xE2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(s[i + 2]) & 0xFE) == 0xA8) {
      out += fmt::format("\\u202{}", static_cast<unsigned char>(s[i + 2]) == 0xA8 ? '8' : '9');
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  out += '"';
}

void append_go_json(std::string& out, const value& v, bool escape_html) {
  if (is_missing(v) || v.is_null()) {
    out += "null";
  } else if (is_time(v)) {
    std::string t = format_time(time_nanos(v));
    out += '"' + t.substr(0, 10) + 'T' + t.substr(11, t.size() - 11 - 10) + "Z\"";
  } else if (v.is_string()) {
    append_json(out, v.get_ref<const std::string&>(), escape_html);
  } else if (v.is_number_float()) {
    double f = v.get<double>();
    if (!std::isfinite(f))
      throw std::runtime_error(fmt::format("json: unsupported value: {}", format_float_v(f)));
    double a = std::fabs(f);
    if (a != 0 && (a < 1e-6 || a >= 1e21)) {
      auto s = chars(f, std::chars_format::scientific);
      auto e = s.find('e');
      if (s.size() >= e + 4 && s[e + 2] == '0')
        s.erase(e + 2, 1);
      out += s;
    } else {
      out += chars(f, std::chars_format::fixed);
    }
  } else if (v.is_array()) {
    out += '[';
    bool first = true;
    for (const auto& e : v) {
      if (!first)
        out += ',';
      first = false;
      append_go_json(out, e, escape_html);
    }
    out += ']';
  } else if (v.is_object()) {
    out += '{';
    bool first = true;
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (!first)
        out += ',';
      first = false;
      append_json(out, it.key(), escape_html);
      out += ':';
      append_go_json(out, it.value(), escape_html);
    }
    out += '}';
  } else {
    out += v.dump();
  }
}

value from_element(simdjson::dom::element e) {
  switch (e.type()) {
    case simdjson::dom::element_type::ARRAY: {
      value out = value::array();
      simdjson::dom::array array;
      if (e.get_array().get(array))
        return out;
      for (auto child : array)
        out.push_back(from_element(child));
      return out;
    }
    case simdjson::dom::element_type::OBJECT: {
      value out = value::object();
      simdjson::dom::object object;
      if (e.get_object().get(object))
        return out;
      for (auto field : object)
        out[std::string(field.key)] = from_element(field.value);
      return out;
    }
    case simdjson::dom::element_type::INT64: return static_cast<double>(e.get_int64().value_unsafe());
    case simdjson::dom::element_type::UINT64:
      return static_cast<double>(e.get_uint64().value_unsafe());
    case simdjson::dom::element_type::DOUBLE: return e.get_double().value_unsafe();
    case simdjson::dom::element_type::STRING: return std::string(e.get_string().value_unsafe());
    case simdjson::dom::element_type::BOOL: return e.get_bool().value_unsafe();
    case simdjson::dom::element_type::NULL_VALUE: return nullptr;
  }
  return nullptr;
}

} // namespace

value no_value() {
  return value(value::value_t::discarded);
}

bool is_time(const value& v) {
  return v.is_binary() && v.get_binary().has_subtype() && v.get_binary().subtype() == time_subtype;
}

value make_time(std::int64_t unix_nanos) {
  std::vector<std::uint8_t> bytes(8);
  for (int i = 0; i < 8; ++i)
    bytes[static_cast<std::size_t>(i)] =
      static_cast<std::uint8_t>(static_cast<std::uint64_t>(unix_nanos) >> (8 * i));
  return value::binary(std::move(bytes), time_subtype);
}

std::int64_t time_nanos(const value& v) {
  const auto& bytes = v.get_binary();
  std::uint64_t n = 0;
  for (std::size_t i = 0; i < 8 && i < bytes.size(); ++i)
    n |= static_cast<std::uint64_t>(bytes[i]) << (8 * i);
  return static_cast<std::int64_t>(n);
}

std::string type_name(const value& v) {
  if (is_missing(v) || v.is_null())
    return "<nil>";
  if (is_time(v))
    return "time.Time";
  switch (v.type()) {
    case value::value_t::string: return "string";
    case value::value_t::boolean: return "bool";
    case value::value_t::number_integer: return "int";
    case value::value_t::number_unsigned: return "uint64";
    case value::value_t::number_float: return "float64";
    case value::value_t::array: return "[]interface {}";
    case value::value_t::object: return "map[string]interface {}";
    default: return "<nil>";
  }
}

std::string format_float_v(double f) {
  if (std::isnan(f))
    return "NaN";
  if (std::isinf(f))
    return f > 0 ? "+Inf" : "-Inf";
  if (f == 0)
    return std::signbit(f) ? "-0" : "0";
  int exp = decimal_exponent(f);
  if (exp < -4 || exp >= 6)
    return chars(f, std::chars_format::scientific);
  return chars(f, std::chars_format::fixed);
}

std::string print_value(const value& v) {
  if (is_missing(v) || v.is_null())
    return "<nil>";
  if (is_time(v))
    return format_time(time_nanos(v));
  switch (v.type()) {
    case value::value_t::string: return v.get<std::string>();
    case value::value_t::boolean: return v.get<bool>() ? "true" : "false";
    case value::value_t::number_integer: return std::to_string(v.get<std::int64_t>());
    case value::value_t::number_unsigned: return std::to_string(v.get<std::uint64_t>());
    case value::value_t::number_float: return format_float_v(v.get<double>());
    case value::value_t::array: {
      std::string out = "[";
      for (std::size_t i = 0; i < v.size(); ++i)
        out += (i ? " " : "") + print_value(v[i]);
      return out + "]";
    }
    case value::value_t::object: {
      std::string out = "map[";
      bool first = true;
      for (auto it = v.begin(); it != v.end(); ++it) {
        out += (first ? "" : " ") + it.key() + ":" + print_value(it.value());
        first = false;
      }
      return out + "]";
    }
    default: return "<nil>";
  }
}

bool truth(const value& v) {
  if (is_missing(v) || v.is_null())
    return false;
  if (is_time(v))
    return true;
  if (v.is_boolean())
    return v.get<bool>();
  if (v.is_number())
    return v.get<double>() != 0;
  if (v.is_string())
    return !v.get_ref<const std::string&>().empty();
  if (v.is_array() || v.is_object())
    return !v.empty();
  return true;
}

std::string go_quote(std::string_view s) {
  std::string out = "\"";
  for (std::size_t i = 0; i < s.size(); ++i) {
    auto c = static_cast<unsigned char>(s[i]);
    switch (c) {
      case '"': out += "\\\""; continue;
      case '\\': out += "\\\\"; continue;
      case '\a': out += "\\a"; continue;
      case '\b': out += "\\b"; continue;
      case '\f': out += "\\f"; continue;
      case '\n': out += "\\n"; continue;
      case '\r': out += "\\r"; continue;
      case '\t': out += "\\t"; continue;
      case '\v': out += "\\v"; continue;
      default: break;
    }
    if (c < 0x20 || c == 0x7f) {
      out += fmt::format("\\x{:02x}", c);
      continue;
    }
    if (c < 0x80) {
      out += static_cast<char>(c);
      continue;
    }
    std::size_t len = c >= 0xF0 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 ? 2 : 0;
    bool valid = len > 0 && c < 0xF5 && i + len <= s.size();
    for (std::size_t k = 1; valid && k < len; ++k)
      valid = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    if (!valid) {
      out += fmt::format("\\x{:02x}", c);
      continue;
    }
    out += s.substr(i, len);
    i += len - 1;
  }
  return out + "\"";
}

std::string to_go_json(const value& v, bool escape_html) {
  std::string out;
  append_go_json(out, v, escape_html);
  return out;
}

value numbers_to_float(value v) {
  if (v.is_number_integer())
    return v.get<double>();
  if (v.is_array() || v.is_object())
    for (auto& child : v)
      child = numbers_to_float(std::move(child));
  return v;
}

std::string strval(const value& v) {
  return v.is_string() ? v.get<std::string>() : print_value(v);
}

std::string arg_string(const value& v, std::string_view fn) {
  if (v.is_string())
    return v.get<std::string>();
  if (is_missing(v))
    throw std::runtime_error(fmt::format("template: {}: invalid value; expected string", fn));
  throw std::runtime_error(
    fmt::format("template: {}: wrong type for value; expected string; got {}", fn, type_name(v)));
}

std::int64_t arg_int(const value& v, std::string_view fn) {
  if (v.is_number_integer())
    return v.get<std::int64_t>();
  throw std::runtime_error(
    fmt::format("template: {}: wrong type for value; expected int; got {}", fn, type_name(v)));
}

std::int64_t to_int64(const value& v) {
  if (v.is_number_integer())
    return v.get<std::int64_t>();
  if (v.is_number_float()) {
    double f = v.get<double>();
    return std::isfinite(f) && std::fabs(f) < 9.2e18 ? static_cast<std::int64_t>(f) : 0;
  }
  if (v.is_boolean())
    return v.get<bool>() ? 1 : 0;
  if (!v.is_string())
    return 0;
  std::string s = v.get<std::string>();
  auto dot = s.find('.');
  if (dot != std::string::npos && s.find_first_not_of('0', dot + 1) == std::string::npos)
    s.erase(dot);
  std::size_t start = (!s.empty() && (s[0] == '-' || s[0] == '+')) ? 1 : 0;
  int base = 10;
  if (s.size() > start + 1 && s[start] == '0') {
    char p = static_cast<char>(std::tolower(s[start + 1]));
    base = p == 'x' ? 16 : p == 'b' ? 2 : p == 'o' ? 8 : 8;
    if (p == 'x' || p == 'b' || p == 'o')
      s.erase(start, 2);
  }
  std::int64_t n = 0;
  const char* first = s.data() + start;
  auto res = std::from_chars(first, s.data() + s.size(), n, base);
  if (res.ec != std::errc() || res.ptr != s.data() + s.size() || first == s.data() + s.size())
    return 0;
  return start == 1 && s[0] == '-' ? -n : n;
}

double to_float64(const value& v) {
  if (v.is_number())
    return v.get<double>();
  if (v.is_boolean())
    return v.get<bool>() ? 1 : 0;
  if (v.is_string()) {
    auto parsed = go::parse_float(v.get_ref<const std::string&>());
    return parsed.ok ? parsed.value : 0;
  }
  return 0;
}

} // namespace tmpl

std::string go_template::execute_input(simdjson::dom::element input) const {
  return tmpl::execute(*tree_, tmpl::value{{"Input", tmpl::from_element(input)}});
}

} // namespace ganglion::dsl
