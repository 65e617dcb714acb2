#include "client/queue_arguments.hpp"

#include <cmath>
#include <limits>
#include <cctype>
#include <initializer_list>

#include <yaml-cpp/yaml.h>

namespace ganglion::amqp {

namespace {

bool one_of(const std::string& text, std::initializer_list<const char*> words) {
  for (const char* w : words)
    if (text == w)
      return true;
  return false;
}

/// A YAML 1.2 core float: [-+]? ( .digits | digits [. digits?] ) ([eE] [-+]? digits)?.
bool is_float(const std::string& text) {
  std::size_t i = 0;
  auto digits = [&] {
    auto from = i;
    while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '_'))
      ++i;
    return i > from;
  };
  if (i < text.size() && (text[i] == '-' || text[i] == '+'))
    ++i;
  bool whole = digits();
  bool fraction = false;
  if (i < text.size() && text[i] == '.') {
    ++i;
    fraction = digits();
  }
  if (!whole && !fraction)
    return false;
  if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
    ++i;
    if (i < text.size() && (text[i] == '-' || text[i] == '+'))
      ++i;
    if (!digits())
      return false;
  }
  return i == text.size();
}

std::optional<std::int64_t> parse_int(std::string text) {
  std::erase(text, '_');
  int base = 10;
  std::size_t skip = 0;
  bool negative = false;
  if (!text.empty() && (text[0] == '-' || text[0] == '+')) {
    negative = text[0] == '-';
    skip = 1;
  }
  auto rest = text.substr(skip);
  if (rest.rfind("0x", 0) == 0) {
    base = 16;
    rest = rest.substr(2);
  } else if (rest.rfind("0o", 0) == 0) {
    base = 8;
    rest = rest.substr(2);
  } else if (rest.rfind("0b", 0) == 0) {
    base = 2;
    rest = rest.substr(2);
  }
  if (rest.empty() || !std::isalnum(static_cast<unsigned char>(rest[0])))
    return std::nullopt;
  try {
    std::size_t used = 0;
    auto v = std::stoll(rest, &used, base);
    if (used != rest.size())
      return std::nullopt;
    return negative ? -v : v;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

argument_value scalar(const YAML::Node& node) {
  const auto& text = node.Scalar();
  if (node.Tag() == "!") // quoted
    return {text};
  if (text.empty() || one_of(text, {"~", "null", "Null", "NULL"}))
    return {std::monostate{}};
  if (one_of(text, {"true", "True", "TRUE"}))
    return {true};
  if (one_of(text, {"false", "False", "FALSE"}))
    return {false};
  if (auto v = parse_int(text))
    return {*v};
  if (is_float(text)) {
    auto plain = text;
    std::erase(plain, '_');
    return {std::stod(plain)};
  }
  if (one_of(text, {".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"}))
    return {std::numeric_limits<double>::infinity()};
  if (one_of(text, {"-.inf", "-.Inf", "-.INF"}))
    return {-std::numeric_limits<double>::infinity()};
  if (one_of(text, {".nan", ".NaN", ".NAN"}))
    return {std::numeric_limits<double>::quiet_NaN()};
  return {text};
}

std::optional<argument_value> value_of(const YAML::Node& node, const std::string& name,
                                       std::string& error) {
  if (node.IsMap()) {
    error = "the value of " + name + " is a mapping; an AMQP argument takes a scalar or a list";
    return std::nullopt;
  }
  if (node.IsSequence()) {
    std::vector<argument_value> list;
    for (const auto& item : node) {
      auto v = value_of(item, name, error);
      if (!v)
        return std::nullopt;
      list.push_back(std::move(*v));
    }
    return argument_value{std::move(list)};
  }
  if (node.IsNull())
    return argument_value{std::monostate{}};
  return scalar(node);
}

amqp_bytes_t bytes_of(const std::string& text) {
  return {text.size(), const_cast<char*>(text.data())};
}

} // namespace

std::optional<argument_table> parse_queue_arguments(std::string_view yaml, std::string& error) {
  argument_table out;
  YAML::Node root;
  try {
    root = YAML::Load(std::string{yaml});
  } catch (const YAML::Exception& e) {
    error = "not YAML: " + e.msg;
    return std::nullopt;
  }
  if (root.IsNull())
    return out;
  if (!root.IsMap()) {
    error = "not a YAML mapping of argument names to values";
    return std::nullopt;
  }
  for (const auto& item : root) {
    auto name = item.first.as<std::string>();
    auto v = value_of(item.second, name, error);
    if (!v)
      return std::nullopt;
    out.emplace_back(std::move(name), std::move(*v));
  }
  return out;
}

amqp_arguments::amqp_arguments(const argument_table& table) {
  if (table.empty())
    return;
  auto& entries = entries_.emplace_back();
  entries.reserve(table.size());
  for (const auto& [name, value] : table)
    entries.push_back({bytes_of(name), field(value)});
  table_ = {static_cast<int>(entries.size()), entries.data()};
}

amqp_field_value_t amqp_arguments::field(const argument_value& v) {
  amqp_field_value_t out{};
  std::visit(
    [&](const auto& x) {
      using T = std::decay_t<decltype(x)>;
      if constexpr (std::is_same_v<T, std::monostate>) {
        out.kind = AMQP_FIELD_KIND_VOID;
      } else if constexpr (std::is_same_v<T, bool>) {
        out.kind = AMQP_FIELD_KIND_BOOLEAN;
        out.value.boolean = x ? 1 : 0;
      } else if constexpr (std::is_same_v<T, std::int64_t>) {
        if (x >= std::numeric_limits<std::int32_t>::min()
            && x <= std::numeric_limits<std::int32_t>::max()) {
          out.kind = AMQP_FIELD_KIND_I32;
          out.value.i32 = static_cast<std::int32_t>(x);
        } else {
          out.kind = AMQP_FIELD_KIND_I64;
          out.value.i64 = x;
        }
      } else if constexpr (std::is_same_v<T, double>) {
        out.kind = AMQP_FIELD_KIND_F64;
        out.value.f64 = x;
      } else if constexpr (std::is_same_v<T, std::string>) {
        out.kind = AMQP_FIELD_KIND_UTF8;
        out.value.bytes = bytes_of(x);
      } else {
        auto& items = arrays_.emplace_back();
        items.reserve(x.size());
        for (const auto& item : x)
          items.push_back(field(item));
        out.kind = AMQP_FIELD_KIND_ARRAY;
        out.value.array = {static_cast<int>(items.size()), items.data()};
      }
    },
    v.value);
  return out;
}

} // namespace ganglion::amqp
