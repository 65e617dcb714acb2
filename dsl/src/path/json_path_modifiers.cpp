// gjson's built-in modifiers (modReverse, modFlatten, modKeys, modValues, modJoin, modToStr,
// modFromStr) over simdjson elements, plus the helpers that build JSON during evaluation.

#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "ganglion/dsl/budget_exceeded.hpp"
#include "go/strconv.hpp"
#include "path/json_path_node.hpp"

namespace ganglion::dsl::path_eval {

namespace {

using simdjson::dom::element;
using simdjson::dom::element_type;

constexpr char hex_digits[] = "0123456789abcdef";

std::string reverse(const node& value) {
  std::string out;
  if (value.el.type() == element_type::ARRAY) {
    std::vector<element> items;
    for (auto item : as_array(value.el))
      items.push_back(item);
    out.push_back('[');
    for (auto it = items.rbegin(); it != items.rend(); ++it) {
      if (it != items.rbegin())
        out.push_back(',');
      append_raw(out, *it);
    }
    out.push_back(']');
  } else {
    std::vector<simdjson::dom::key_value_pair> fields;
    for (auto field : as_object(value.el))
      fields.push_back(field);
    out.push_back('{');
    for (auto it = fields.rbegin(); it != fields.rend(); ++it) {
      if (it != fields.rbegin())
        out.push_back(',');
      append_string(out, it->key);
      out.push_back(':');
      append_raw(out, it->value);
    }
    out.push_back('}');
  }
  return out;
}

// Appends the members of a flattened array, without brackets.
void flatten_into(std::string& out, element array, bool deep, bool& first) {
  for (auto item : as_array(array)) {
    if (item.type() == element_type::ARRAY) {
      if (deep) {
        flatten_into(out, item, deep, first);
      } else {
        for (auto inner : as_array(item)) {
          if (!first)
            out.push_back(',');
          append_raw(out, inner);
          first = false;
        }
      }
      continue;
    }
    if (!first)
      out.push_back(',');
    append_raw(out, item);
    first = false;
  }
}

std::string keys(const node& value) {
  std::string out = "[";
  bool first = true;
  auto add = [&](auto&& append) {
    if (!first)
      out.push_back(',');
    append();
    first = false;
  };
  switch (value.el.type()) {
    case element_type::OBJECT:
      for (auto field : as_object(value.el))
        add([&] { append_string(out, field.key); });
      break;
    case element_type::ARRAY:
      for ([[maybe_unused]] auto item : as_array(value.el))
        add([&] { out += "null"; });
      break;
    default:
      out += "null";
  }
  out.push_back(']');
  return out;
}

std::string values(const node& value) {
  std::string out = "[";
  if (value.el.type() == element_type::OBJECT) {
    bool first = true;
    for (auto field : as_object(value.el)) {
      if (!first)
        out.push_back(',');
      append_raw(out, field.value);
      first = false;
    }
  } else {
    append_raw(out, value.el);
  }
  out.push_back(']');
  return out;
}

std::string join(const node& value, bool preserve) {
  std::string out = "{";
  if (preserve) {
    bool first = true;
    for (auto item : as_array(value.el)) {
      if (item.type() != element_type::OBJECT)
        continue;
      for (auto field : as_object(item)) {
        if (!first)
          out.push_back(',');
        append_string(out, field.key);
        out.push_back(':');
        append_raw(out, field.value);
        first = false;
      }
    }
  } else {
    std::vector<std::string_view> order;
    std::unordered_map<std::string_view, element> last;
    for (auto item : as_array(value.el)) {
      if (item.type() != element_type::OBJECT)
        continue;
      for (auto field : as_object(item)) {
        if (last.find(field.key) == last.end())
          order.push_back(field.key);
        last[field.key] = field.value;
      }
    }
    for (std::size_t i = 0; i < order.size(); ++i) {
      if (i > 0)
        out.push_back(',');
      append_string(out, order[i]);
      out.push_back(':');
      append_raw(out, last[order[i]]);
    }
  }
  out.push_back('}');
  return out;
}

} // namespace

void budget::too_many_steps() {
  throw budget_exceeded(
    fmt::format("the path exceeded its evaluation budget ({} steps)", max_path_steps));
}

void budget::built_too_much() {
  throw budget_exceeded(
    fmt::format("the path exceeded its evaluation budget (it built more than {} MiB of JSON)",
                max_path_built_bytes >> 20));
}

maybe synthesize(std::string json, budget& b) {
  if (json.empty())
    return std::nullopt;
  b.charge(json.size());
  auto owner = std::make_shared<simdjson::dom::parser>();
  element el;
  if (owner->parse(json).get(el))
    return std::nullopt;
  return node{el, std::move(owner)};
}

void append_raw(std::string& out, element el) {
  out += simdjson::to_string(el);
}

void append_string(std::string& out, std::string_view text) {
  out.push_back('"');
  for (char ch : text) {
    auto c = static_cast<unsigned char>(ch);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(ch);
    } else if (c < 0x20) {
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
    } else {
      out.push_back(ch);
    }
  }
  out.push_back('"');
}

maybe apply_modifier(const path_ast::segment& seg, const node& value, budget& b) {
  using path_ast::modifier_kind;
  auto type = value.el.type();
  bool array = type == element_type::ARRAY;
  switch (seg.modifier) {
    case modifier_kind::this_:
      return value;
    case modifier_kind::reverse:
      if (!is_container(value.el))
        return value;
      return synthesize(reverse(value), b);
    case modifier_kind::flatten: {
      if (!array)
        return value;
      std::string out = "[";
      bool first = true;
      flatten_into(out, value.el, seg.modifier_flag, first);
      out.push_back(']');
      return synthesize(std::move(out), b);
    }
    case modifier_kind::keys:
      return synthesize(keys(value), b);
    case modifier_kind::values:
      return array ? maybe(value) : synthesize(values(value), b);
    case modifier_kind::join:
      return array ? synthesize(join(value, seg.modifier_flag), b) : maybe(value);
    case modifier_kind::tostr: {
      std::string out;
      go::append_json_string(out, simdjson::to_string(value.el));
      return synthesize(std::move(out), b);
    }
    case modifier_kind::fromstr:
      if (type == element_type::STRING)
        return synthesize(std::string(value.el.get_string().value_unsafe()), b);
      return type == element_type::NULL_VALUE ? std::nullopt : maybe(value);
  }
  return std::nullopt;
}

} // namespace ganglion::dsl::path_eval
