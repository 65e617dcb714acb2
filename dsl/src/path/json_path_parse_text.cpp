#include "path/json_path_parse.hpp"

#include <simdjson.h>

#include "go/strconv.hpp"

namespace ganglion::dsl::path_ast {

namespace {

struct modifier_name {
  std::string_view name;
  modifier_kind kind;
};

// @ugly and @valid are the identity here: results are minified and parsed data is valid.
constexpr modifier_name supported_modifiers[] = {
  {"this", modifier_kind::this_},     {"ugly", modifier_kind::this_},
  {"valid", modifier_kind::this_},    {"reverse", modifier_kind::reverse},
  {"flatten", modifier_kind::flatten}, {"keys", modifier_kind::keys},
  {"values", modifier_kind::values},  {"join", modifier_kind::join},
  {"tostr", modifier_kind::tostr},    {"fromstr", modifier_kind::fromstr},
};

constexpr std::string_view unsupported_modifiers[] = {"pretty", "group", "dig"};

} // namespace

std::optional<modifier_kind> supported_modifier(std::string_view name) {
  for (auto& m : supported_modifiers)
    if (m.name == name)
      return m.kind;
  return std::nullopt;
}

bool is_gjson_modifier(std::string_view name) {
  if (supported_modifier(name))
    return true;
  for (auto m : unsupported_modifiers)
    if (m == name)
      return true;
  return false;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && static_cast<unsigned char>(s.front()) <= ' ')
    s.remove_prefix(1);
  while (!s.empty() && static_cast<unsigned char>(s.back()) <= ' ')
    s.remove_suffix(1);
  return s;
}

bool object_flag(std::string_view json, std::string_view key) {
  simdjson::dom::parser parser;
  simdjson::dom::object obj;
  if (parser.parse(json.data(), json.size(), true).get(obj))
    return false;
  bool flag = false;
  for (auto field : obj) {
    if (field.key != key)
      continue;
    auto v = field.value;
    if (v.is_bool())
      flag = v.get_bool().value_unsafe();
    else if (v.is_string())
      flag = go::parse_bool(std::string(v.get_string().value_unsafe())).value_or(false);
    else if (v.is_number())
      flag = v.get_double().value_unsafe() != 0;
    else
      flag = false;
  }
  return flag;
}

std::string selector_name(std::string_view name, std::string_view selector_path) {
  std::string out;
  if (!name.empty()) {
    simdjson::dom::parser json;
    simdjson::dom::element parsed;
    if (name.front() == '"' && !json.parse(name.data(), name.size(), true).get(parsed)
        && parsed.is_string())
      out = name;
    else
      go::append_json_string(out, name);
    return out;
  }
  std::string_view last = selector_path;
  for (std::size_t i = selector_path.size(); i-- > 0;) {
    char c = selector_path[i];
    if ((c == '|' || c == '.') && !(i > 0 && selector_path[i - 1] == '\\')) {
      last = selector_path.substr(i + 1);
      break;
    }
  }
  bool simple = true;
  for (char c : last)
    if (static_cast<unsigned char>(c) < ' '
        || std::string_view("[]{}()#|!").find(c) != std::string_view::npos)
      simple = false;
  go::append_json_string(out, simple ? last : "_");
  return out;
}

bool parse_comparison(std::string_view text, query& q) {
  struct op_text {
    std::string_view text;
    query_op op;
  };
  static constexpr op_text ops[] = {
    {"!=", query_op::ne}, {"!%", query_op::not_like}, {"<=", query_op::le},
    {">=", query_op::ge}, {"==", query_op::eq},       {"<", query_op::lt},
    {">", query_op::gt},  {"=", query_op::eq},        {"%", query_op::like},
  };
  std::size_t size = 0;
  for (auto& o : ops) {
    if (text.substr(0, o.text.size()) == o.text) {
      q.op = o.op;
      size = o.text.size();
      break;
    }
  }
  if (size == 0)
    return false;
  auto value = trim(text.substr(size));
  if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
    q.value = go::json_unescape(value.substr(1, value.size() - 2));
  else
    q.value = std::string(value);
  if (!q.value.empty() && q.value.front() == '~') {
    auto t = std::string_view(q.value).substr(1);
    q.to_bool = t == "*"       ? tilde::any
                : t == "null"  ? tilde::null_
                : t == "true"  ? tilde::truthy
                : t == "false" ? tilde::falsy
                               : tilde::unknown;
  }
  q.number = go::parse_float(q.value).value;
  return true;
}

} // namespace ganglion::dsl::path_ast
