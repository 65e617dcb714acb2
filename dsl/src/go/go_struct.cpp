#include "ganglion/dsl/go/go_struct.hpp"

#include <nlohmann/json.hpp>

#include "ganglion/dsl/go/go_json.hpp"

namespace ganglion::dsl {

namespace {

using json = nlohmann::ordered_json;

/// strconv.Quote of a tag made of printable ASCII.
std::string go_quote(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + "\"";
}

const char* json_kind(const json& v) {
  switch (v.type()) {
    case json::value_t::object: return "object";
    case json::value_t::array: return "array";
    case json::value_t::string: return "string";
    case json::value_t::boolean: return "bool";
    case json::value_t::null: return "null";
    default: return "number";
  }
}

/// The struct whose field is being decoded and the JSON names down to it (Go's errorContext).
struct context {
  const go_type* owner = nullptr;
  std::string path;
};

std::string short_name(const go_type& t) {
  auto dot = t.name.rfind('.');
  return dot == std::string::npos ? t.name : t.name.substr(dot + 1);
}

class decoder {
public:
  explicit decoder(std::string& error) : error_(error) {}

  bool value(const json& v, const go_type& t, go_data& out, const context& cx) {
    if (v.is_null()) {
      if (t.k == go_type::kind::slice)
        out.items.reset();
      return true;
    }
    switch (t.k) {
      case go_type::kind::string:
        if (!v.is_string())
          return mismatch(json_kind(v), t, cx);
        out.text = v.get<std::string>();
        return true;
      case go_type::kind::boolean:
        if (!v.is_boolean())
          return mismatch(json_kind(v), t, cx);
        out.flag = v.get<bool>();
        return true;
      case go_type::kind::integer: return integer(v, t, out, cx);
      case go_type::kind::structure: return structure(v, t, out, cx);
      case go_type::kind::slice: return slice(v, t, out, cx);
    }
    return true;
  }

private:
  bool mismatch(const std::string& what, const go_type& t, const context& cx) {
    error_ = "json: cannot unmarshal " + what;
    if (cx.owner == nullptr)
      error_ += " into Go value of type " + t.go_string();
    else
      error_ += " into Go struct field " + short_name(*cx.owner) + "." + cx.path + " of type "
                + t.go_string();
    return false;
  }

  bool integer(const json& v, const go_type& t, go_data& out, const context& cx) {
    if (v.is_number_integer() && !v.is_number_unsigned()) {
      out.number = v.get<std::int64_t>();
      return true;
    }
    if (v.is_number_unsigned()) {
      auto n = v.get<std::uint64_t>();
      if (n <= static_cast<std::uint64_t>(INT64_MAX)) {
        out.number = static_cast<std::int64_t>(n);
        return true;
      }
      return mismatch("number " + std::to_string(n), t, cx);
    }
    if (v.is_number_float())
      return mismatch("number " + v.dump(), t, cx);
    return mismatch(json_kind(v), t, cx);
  }

  bool structure(const json& v, const go_type& t, go_data& out, const context& cx) {
    if (!v.is_object())
      return mismatch(json_kind(v), t, cx);
    if (out.fields.size() != t.fields.size())
      out = go_zero(t);
    for (const auto& [key, item] : v.items()) {
      auto i = find(t, key);
      if (i == t.fields.size())
        continue;
      context inner{&t, cx.path.empty() ? t.fields[i].json_name
                                        : cx.path + "." + t.fields[i].json_name};
      if (!value(item, t.fields[i].type, out.fields[i], inner))
        return false;
    }
    return true;
  }

  bool slice(const json& v, const go_type& t, go_data& out, const context& cx) {
    if (!v.is_array())
      return mismatch(json_kind(v), t, cx);
    std::vector<go_data> items;
    for (std::size_t i = 0; i < v.size(); ++i) {
      items.push_back(out.items && i < out.items->size() ? (*out.items)[i] : go_zero(*t.element));
      if (!value(v[i], *t.element, items.back(), cx))
        return false;
    }
    out.items = std::move(items);
    return true;
  }

  /// Go's field lookup: the exact name, else the folded one; `t.fields.size()` when none.
  static std::size_t find(const go_type& t, const std::string& key) {
    for (std::size_t i = 0; i < t.fields.size(); ++i)
      if (t.fields[i].json_name == key)
        return i;
    auto folded = go_folded_name(key);
    for (std::size_t i = 0; i < t.fields.size(); ++i)
      if (go_folded_name(t.fields[i].json_name) == folded)
        return i;
    return t.fields.size();
  }

  std::string& error_;
};

} // namespace

std::string go_folded_name(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c >= 'a' && c <= 'z') {
      out += static_cast<char>(c - 'a' + 'A');
    } else if (s.substr(i, 2) == "\xC5\xBF") {
      out += 'S';
      ++i;
    } else if (s.substr(i, 2) == "\xC4\xB1") {
      out += 'I';
      ++i;
    } else {
      out += c;
    }
  }
  return out;
}

std::string go_type::go_string() const {
  if (!name.empty())
    return name;
  switch (k) {
    case kind::string: return "string";
    case kind::integer: return "int";
    case kind::boolean: return "bool";
    case kind::slice: return "[]" + element->go_string();
    case kind::structure: break;
  }
  if (fields.empty())
    return "struct {}";
  std::string out = "struct { ";
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0)
      out += "; ";
    out += fields[i].go_name + " " + fields[i].type.go_string() + " "
           + go_quote("json:\"" + fields[i].json_name + "\"");
  }
  return out + " }";
}

go_data go_zero(const go_type& t) {
  go_data out;
  if (t.k == go_type::kind::structure)
    for (const auto& f : t.fields)
      out.fields.push_back(go_zero(f.type));
  return out;
}

std::optional<go_data> go_unmarshal(std::string_view document, const go_type& t,
                                    std::string& error) {
  json parsed;
  try {
    parsed = json::parse(document);
  } catch (const json::parse_error& e) {
    std::string what = e.what();
    if (what.find("unexpected end of input") != std::string::npos)
      error = "unexpected end of JSON input";
    else if (auto colon = what.find(": "); colon != std::string::npos)
      error = "invalid JSON: " + what.substr(colon + 2);
    else
      error = "invalid JSON";
    return std::nullopt;
  }
  auto out = go_zero(t);
  if (!decoder(error).value(parsed, t, out, {}))
    return std::nullopt;
  return out;
}

void append_go_marshal(std::string& out, const go_data& value, const go_type& t) {
  switch (t.k) {
    case go_type::kind::string: append_go_json_string(out, value.text); return;
    case go_type::kind::integer: out += std::to_string(value.number); return;
    case go_type::kind::boolean: out += value.flag ? "true" : "false"; return;
    case go_type::kind::slice:
      if (!value.items) {
        out += "null";
        return;
      }
      out += '[';
      for (std::size_t i = 0; i < value.items->size(); ++i) {
        if (i > 0)
          out += ',';
        append_go_marshal(out, (*value.items)[i], *t.element);
      }
      out += ']';
      return;
    case go_type::kind::structure: break;
  }
  out += '{';
  for (std::size_t i = 0; i < t.fields.size(); ++i) {
    if (i > 0)
      out += ',';
    append_go_json_string(out, t.fields[i].json_name);
    out += ':';
    append_go_marshal(out, value.fields[i], t.fields[i].type);
  }
  out += '}';
}

const go_data* go_field_of(const go_data& value, const go_type& t, std::string_view json_name) {
  for (std::size_t i = 0; i < t.fields.size() && i < value.fields.size(); ++i)
    if (t.fields[i].json_name == json_name)
      return &value.fields[i];
  return nullptr;
}

} // namespace ganglion::dsl
