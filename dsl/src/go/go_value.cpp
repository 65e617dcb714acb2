#include "ganglion/dsl/go/go_value.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include <nlohmann/json.hpp>

#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::dsl {

namespace {

using json = nlohmann::json;

constexpr int max_depth = 1000;

/// Go's float64 encoder: shortest round-trip digits, exponent form below 1e-6 and from 1e21
/// with a one-digit negative exponent (`1e-7`, not `1e-07`).
void append_float(std::string& out, double f) {
  char text[64];
  double a = std::fabs(f);
  bool exponent = a != 0 && (a < 1e-6 || a >= 1e21);
  auto [end, ec] =
    std::to_chars(text, text + sizeof text, f,
                  exponent ? std::chars_format::scientific : std::chars_format::fixed);
  std::string s(text, end);
  if (exponent) {
    auto n = s.size();
    if (n >= 4 && s[n - 4] == 'e' && s[n - 3] == '-' && s[n - 2] == '0')
      s.erase(n - 2, 1);
  }
  out += s;
}

void append(std::string& out, const json& v) {
  switch (v.type()) {
    case json::value_t::null: out += "null"; break;
    case json::value_t::boolean: out += v.get<bool>() ? "true" : "false"; break;
    case json::value_t::number_integer:
      append_float(out, static_cast<double>(v.get<std::int64_t>()));
      break;
    case json::value_t::number_unsigned:
      append_float(out, static_cast<double>(v.get<std::uint64_t>()));
      break;
    case json::value_t::number_float: append_float(out, v.get<double>()); break;
    case json::value_t::string:
      append_go_json_string(out, v.get_ref<const std::string&>());
      break;
    case json::value_t::array: {
      out += '[';
      bool first = true;
      for (const auto& e : v) {
        if (!first)
          out += ',';
        first = false;
        append(out, e);
      }
      out += ']';
      break;
    }
    case json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, value] : v.items()) {
        if (!first)
          out += ',';
        first = false;
        append_go_json_string(out, key);
        out += ':';
        append(out, value);
      }
      out += '}';
      break;
    }
    default: out += "null"; break;
  }
}

/// The deepest nesting of arrays and objects in `document` (strings skipped).
int nesting(std::string_view document) {
  int depth = 0;
  int deepest = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < document.size(); ++i) {
    char c = document[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      deepest = std::max(deepest, ++depth);
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return deepest;
}

} // namespace

std::optional<std::string> remarshal_go_map(std::string_view document,
                                           const std::map<std::string, std::string>& extra,
                                           std::string& error) {
  if (nesting(document) > max_depth) {
    error = "exceeded max depth";
    return std::nullopt;
  }
  json value;
  try {
    value = json::parse(document.begin(), document.end());
  } catch (const json::exception& e) {
    error = e.what();
    return std::nullopt;
  }
  if (!value.is_object()) {
    error = std::string{"json: cannot unmarshal "}
            + (value.is_array()     ? "array"
               : value.is_string()  ? "string"
               : value.is_boolean() ? "bool"
               : value.is_null()    ? "null"
                                    : "number")
            + " into Go value of type map[string]interface {}";
    return std::nullopt;
  }
  for (const auto& [key, text] : extra)
    value[key] = text;
  std::string out;
  append(out, value);
  return out;
}

} // namespace ganglion::dsl
