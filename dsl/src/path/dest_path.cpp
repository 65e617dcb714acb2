// sjson-compatible destination paths (tidwall/sjson v1.2.5 parsePath / appendRawPaths /
// appendBuild), applied to JSON text so untouched parts keep their exact bytes.

#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <simdjson.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/path/json_path.hpp"
#include "go/strconv.hpp"

namespace ganglion::dsl {

namespace {

/// One dot-separated component of a destination.
struct dest_component {
  std::string key;
  /// A leading `:` forces an object key even when the text is numeric.
  bool force = false;
  /// sjson's atoui: all digits (vacuously true for an empty key), not forced.
  bool numeric = false;
  std::size_t index = 0;
  /// `-1` (not forced): append to an array.
  bool append = false;
};

std::size_t skip_ws(std::string_view s, std::size_t i) {
  while (i < s.size() && static_cast<unsigned char>(s[i]) <= ' ')
    ++i;
  return i;
}

std::size_t string_end(std::string_view s, std::size_t i) {
  for (++i; i < s.size(); ++i) {
    if (s[i] == '\\')
      ++i;
    else if (s[i] == '"')
      return i + 1;
  }
  return s.size();
}

// The end of the (valid) JSON value starting at i.
std::size_t value_end(std::string_view s, std::size_t i) {
  if (s[i] == '"')
    return string_end(s, i);
  if (s[i] != '{' && s[i] != '[') {
    while (i < s.size() && s[i] != ',' && s[i] != '}' && s[i] != ']'
           && static_cast<unsigned char>(s[i]) > ' ')
      ++i;
    return i;
  }
  int depth = 0;
  for (; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"') {
      i = string_end(s, i) - 1;
    } else if (c == '{' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ']') {
      if (--depth == 0)
        return i + 1;
    }
  }
  return s.size();
}

struct span {
  std::size_t begin = 0;
  std::size_t end = 0;
};

// The spans of a container's members (values only; keys are matched in find()).
std::vector<span> array_items(std::string_view s, std::size_t open) {
  std::vector<span> items;
  std::size_t i = skip_ws(s, open + 1);
  while (i < s.size() && s[i] != ']') {
    std::size_t e = value_end(s, i);
    items.push_back({i, e});
    i = skip_ws(s, e);
    if (i < s.size() && s[i] == ',')
      i = skip_ws(s, i + 1);
  }
  return items;
}

// gjson.Get(json, component) for a simple component: the value's span, if present.
std::optional<span> find(std::string_view s, const dest_component& c) {
  std::size_t i = skip_ws(s, 0);
  if (i == s.size())
    return std::nullopt;
  if (s[i] == '[') {
    if (c.key.empty() || c.key.find_first_not_of("0123456789") != std::string::npos)
      return std::nullopt;
    auto items = array_items(s, i);
    if (c.index >= items.size())
      return std::nullopt;
    return items[c.index];
  }
  if (s[i] != '{')
    return std::nullopt;
  i = skip_ws(s, i + 1);
  while (i < s.size() && s[i] == '"') {
    std::size_t key_end = string_end(s, i);
    auto key = s.substr(i + 1, key_end - i - 2);
    bool match = key.find('\\') == std::string_view::npos ? key == c.key
                                                         : go::json_unescape(key) == c.key;
    i = skip_ws(s, key_end);
    i = skip_ws(s, i + 1);
    std::size_t e = value_end(s, i);
    if (match)
      return span{i, e};
    i = skip_ws(s, e);
    if (i < s.size() && s[i] == ',')
      i = skip_ws(s, i + 1);
  }
  return std::nullopt;
}

void append_build(std::string& out, bool array, const std::vector<dest_component>& path,
                  std::size_t i, std::string_view raw) {
  if (!array) {
    go::append_sjson_string(out, path[i].key);
    out.push_back(':');
  }
  if (i + 1 == path.size()) {
    out.append(raw);
    return;
  }
  const auto& next = path[i + 1];
  if (next.numeric || next.append) {
    out.push_back('[');
    for (std::size_t k = 0; next.numeric && k < next.index; ++k)
      out += "null,";
    append_build(out, true, path, i + 1, raw);
    out.push_back(']');
  } else {
    out.push_back('{');
    append_build(out, false, path, i + 1, raw);
    out.push_back('}');
  }
}

std::string set_at(std::string_view json, const std::vector<dest_component>& path,
                   std::size_t i, std::string_view raw) {
  const auto& c = path[i];
  if (auto found = find(json, c)) {
    std::string out(json.substr(0, found->begin));
    if (i + 1 < path.size())
      out += set_at(json.substr(found->begin, found->end - found->begin), path, i + 1, raw);
    else
      out.append(raw);
    out.append(json.substr(found->end));
    return out;
  }
  std::size_t b = skip_ws(json, 0);
  std::size_t e = json.size();
  while (e > b && static_cast<unsigned char>(json[e - 1]) <= ' ')
    --e;
  std::string_view body = json.substr(b, e - b);
  if (body.empty() || (body.front() != '{' && body.front() != '['))
    body = c.numeric ? "[]" : "{}";
  bool comma = body[skip_ws(body, 1)] != '}' && body[skip_ws(body, 1)] != ']';
  std::string out;
  if (body.front() == '{') {
    out.append(body.substr(0, body.size() - 1));
    if (comma)
      out.push_back(',');
    append_build(out, false, path, i, raw);
    out.push_back('}');
    return out;
  }
  if (!c.numeric && !c.append)
    throw std::invalid_argument(
      fmt::format("cannot set array element for non-numeric key '{}'", c.key));
  if (c.append) {
    out.append(body.substr(0, body.size() - 1));
    if (comma)
      out.push_back(',');
    append_build(out, true, path, i, raw);
    out.push_back(']');
    return out;
  }
  auto items = array_items(body, 0);
  out.push_back('[');
  for (std::size_t k = 0; k < items.size(); ++k) {
    if (k > 0)
      out.push_back(',');
    out.append(body.substr(items[k].begin, items[k].end - items[k].begin));
  }
  for (std::size_t k = items.size(); k < c.index; ++k)
    out += items.empty() ? "null," : ",null";
  if (!items.empty())
    out.push_back(',');
  append_build(out, true, path, i, raw);
  out.push_back(']');
  return out;
}

bool valid_json(std::string_view text) {
  thread_local simdjson::dom::parser parser;
  return !parser.parse(text.data(), text.size(), true).error();
}

} // namespace

struct dest_path::impl {
  std::string text;
  std::vector<dest_component> components;
};

dest_path dest_path::compile(std::string_view text) {
  dest_path out;
  out.impl_->text = std::string(text);
  if (text.empty())
    return out;
  auto& comps = out.impl_->components;
  comps.emplace_back();
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    auto& cur = comps.back();
    if (c == ':' && cur.key.empty() && !cur.force && (i == 0 || text[i - 1] == '.')) {
      cur.force = true;
    } else if (c == '.') {
      comps.emplace_back();
    } else if (c == '\\') {
      if (++i < text.size())
        cur.key.push_back(text[i]);
    } else if (c == '|' || c == '#' || c == '@' || c == '*' || c == '?') {
      throw compile_error(fmt::format("dest '{}': '{}' is not supported in a destination path "
                                      "(only keys, indexes, -1 and \\ escapes)",
                                      text, c),
                          i);
    } else {
      cur.key.push_back(c);
    }
  }
  for (auto& c : comps) {
    c.numeric = !c.force && c.key.find_first_not_of("0123456789") == std::string::npos;
    if (c.numeric && !c.key.empty()) {
      if (c.key.size() > 9)
        throw compile_error(fmt::format("dest '{}': array index {} is too large", text, c.key),
                            0);
      c.index = std::stoul(c.key);
    }
    c.append = !c.force && c.key == "-1";
  }
  return out;
}

const std::string& dest_path::text() const noexcept {
  return impl_->text;
}

bool dest_path::empty() const noexcept {
  return impl_->components.empty();
}

dest_path::dest_path() : impl_(std::make_unique<impl>()) {}
dest_path::~dest_path() = default;
dest_path::dest_path(const dest_path& other) : impl_(std::make_unique<impl>(*other.impl_)) {}
dest_path& dest_path::operator=(const dest_path& other) {
  if (this != &other)
    impl_ = std::make_unique<impl>(*other.impl_);
  return *this;
}
dest_path::dest_path(dest_path&&) noexcept = default;
dest_path& dest_path::operator=(dest_path&&) noexcept = default;

void set_json(std::string& document, const dest_path& dest, std::string_view raw_json) {
  if (!valid_json(raw_json))
    throw std::invalid_argument(fmt::format("value '{}' is not valid JSON", raw_json));
  const auto& path = dest.compiled().components;
  if (path.empty()) {
    document = std::string(raw_json);
    return;
  }
  if (document.find_first_not_of(" \t\r\n") != std::string::npos && !valid_json(document))
    throw std::invalid_argument("the document is not valid JSON");
  document = set_at(document, path, 0, raw_json);
}

} // namespace ganglion::dsl
