#include "source/qson.hpp"

#include <cmath>
#include <utility>
#include <vector>

#include "ganglion/http/internal/webhook_data.hpp"

namespace ganglion::storagegrid::detail {

namespace {

using json = nlohmann::json;

constexpr int go_max_depth = 10000; // encoding/json's nesting limit
// *ganglion*: qson and its merge recurse once per `[` of a key and per level of two values
// merged; Go's stacks grow, a server thread's do not, so deeper nesting is refused.
constexpr int max_nesting = 1000;

/// Each byte of `text` that is not part of valid UTF-8 replaced by U+FFFD, as Go decodes
/// strings (outside strings such bytes are a syntax error either way).
std::string valid_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    auto c = static_cast<unsigned char>(text[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    bool ok = n > 0 && i + n <= text.size();
    for (std::size_t k = 1; ok && k < n; ++k)
      ok = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
    if (ok && n > 1) {
      std::uint32_t cp = c & (0x7F >> n);
      for (std::size_t k = 1; k < n; ++k)
        cp = (cp << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
      static constexpr std::uint32_t least[] = {0, 0, 0x80, 0x800, 0x10000};
      ok = cp >= least[n] && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
    }
    if (ok) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      out += "\xEF\xBF\xBD";
      ++i;
    }
  }
  return out;
}

/// The value of the escape `\uXXXX` at `at` of `text`, or -1.
int escaped_unit(const std::string& text, std::size_t at) {
  if (at + 6 > text.size() || text[at] != '\\' || text[at + 1] != 'u')
    return -1;
  int value = 0;
  for (std::size_t k = at + 2; k < at + 6; ++k) {
    char c = text[k];
    int digit = c >= '0' && c <= '9'   ? c - '0'
                : c >= 'a' && c <= 'f' ? c - 'a' + 10
                : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                       : -1;
    if (digit < 0)
      return -1;
    value = value * 16 + digit;
  }
  return value;
}

/// Each `\uD800`–`\uDFFF` escape in a string that is not half of a pair replaced by
/// `\uFFFD`, as Go decodes it (nlohmann refuses the text).
std::string lone_surrogates_replaced(std::string text) {
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '"') {
      in_string = !in_string;
    } else if (in_string && c == '\\') {
      int unit = escaped_unit(text, i);
      if (unit < 0) {
        ++i; // another escape: its character is not a quote
        continue;
      }
      if (unit >= 0xD800 && unit <= 0xDFFF) {
        int next = escaped_unit(text, i + 6);
        if (unit <= 0xDBFF && next >= 0xDC00 && next <= 0xDFFF) {
          i += 11;
          continue;
        }
        text.replace(i + 2, 4, "FFFD");
      }
      i += 5;
    }
  }
  return text;
}

/// Every number of `v` as a double (Go's float64); false when one is out of its range or the
/// value nests deeper than Go's decoder goes.
bool as_float64(json& v) {
  std::vector<std::pair<json*, int>> pending{{&v, 0}};
  while (!pending.empty()) {
    auto [at, depth] = pending.back();
    pending.pop_back();
    if (at->is_number()) {
      double d = at->get<double>();
      if (!std::isfinite(d))
        return false;
      *at = d;
    } else if (at->is_structured()) {
      if (depth >= go_max_depth)
        return false;
      for (auto& e : *at)
        pending.emplace_back(&e, depth + 1);
    }
  }
  return true;
}

/// `s` split at every `[` and `]` (Go's regexp `\[|\]` Split(s, -1)).
std::vector<std::string> bracket_pieces(const std::string& s) {
  std::vector<std::string> out{std::string{}};
  for (char c : s) {
    if (c == '[' || c == ']')
      out.emplace_back();
    else
      out.back() += c;
  }
  return out;
}

class reader {
public:
  explicit reader(qson_error& error) : error_(error) {}

  std::optional<json> query_to_map(const std::string& param, int depth) {
    auto last = param.rfind('=');
    if (last == std::string::npos)
      return fail("qson: invalid url query param provided");
    auto value = http::detail::query_unescape(std::string_view{param}.substr(last + 1));
    auto key = http::detail::query_unescape(std::string_view{param}.substr(0, last));
    if (!value || !key)
      return fail("invalid URL escape in \"" + param + "\"");
    auto pieces = bracket_pieces(*key);
    json out = json::object();
    if (pieces.size() == 1) {
      auto v = go_json_value(*value);
      if (!v)
        v = go_json_value("\"" + *value + "\"");
      if (!v)
        return fail("qson: the value of \"" + *key
                    + "\" is neither JSON nor a JSON string's "
                      "text");
      out[pieces[0]] = std::move(*v);
      return out;
    }
    if (depth >= max_nesting)
      return fail("a key nests deeper than " + std::to_string(max_nesting) + " levels");
    // qson's buildNewKey: `a[b][c]` → `b[c]`; a key with one bracket is out of its bounds.
    auto rest = key->substr(pieces[0].size() + 1);
    if (pieces[1].size() + 1 > rest.size())
      return panic("slice bounds out of range building the key after \"" + *key + "\"");
    auto inner = query_to_map(rest.substr(0, pieces[1].size()) + rest.substr(pieces[1].size() + 1)
                                + "=" + *value,
                              depth + 1);
    if (!inner)
      return std::nullopt;
    if (pieces[1].empty()) { // `a[]=v`: an array of the one value
      auto at = inner->find("");
      out[pieces[0]] = json::array({at == inner->end() ? json(nullptr) : std::move(*at)});
    } else {
      out[pieces[0]] = std::move(*inner);
    }
    return out;
  }

  /// qson's merge: objects key by key, arrays appended, anything else replaced.
  bool merge(json& into, json&& from, int depth) {
    if (depth >= max_nesting) {
      fail("values nest deeper than " + std::to_string(max_nesting) + " levels");
      return false;
    }
    if (into.is_object()) {
      if (!from.is_object()) {
        panic("interface conversion: the value merged into an object is not one");
        return false;
      }
      for (auto it = from.begin(); it != from.end(); ++it) {
        auto at = into.find(it.key());
        if (at == into.end())
          into[it.key()] = std::move(it.value());
        else if (!merge(*at, std::move(it.value()), depth + 1))
          return false;
      }
    } else if (into.is_array()) {
      if (!from.is_array()) {
        panic("interface conversion: the value merged into an array is not one");
        return false;
      }
      for (auto& v : from)
        into.push_back(std::move(v));
    } else {
      into = std::move(from);
    }
    return true;
  }

private:
  std::nullopt_t fail(std::string message) {
    error_ = {std::move(message), false};
    return std::nullopt;
  }
  std::nullopt_t panic(std::string message) {
    error_ = {std::move(message), true};
    return std::nullopt;
  }

  qson_error& error_;
};

} // namespace

std::optional<json> go_json_value(std::string_view text) {
  // nlohmann skips a leading byte order mark; Go's grammar has none.
  if (text.substr(0, 3) == "\xEF\xBB\xBF")
    return std::nullopt;
  auto clean = lone_surrogates_replaced(valid_utf8(text));
  auto v = json::parse(clean, nullptr, false);
  if (v.is_discarded() || !as_float64(v))
    return std::nullopt;
  return v;
}

std::optional<json> notification_tree(std::string_view body, qson_error& error) {
  auto query = http::detail::query_unescape(body);
  if (!query) {
    error = {"failed to unescape request body url: invalid URL escape", false};
    return std::nullopt;
  }
  reader r{error};
  json builder = json::object();
  std::size_t from = 0;
  while (true) {
    auto amp = query->find('&', from);
    auto part = query->substr(from, amp == std::string::npos ? std::string::npos : amp - from);
    auto map = r.query_to_map(part, 0);
    if (!map || !r.merge(builder, std::move(*map), 0))
      return std::nullopt;
    if (amp == std::string::npos)
      return builder;
    from = amp + 1;
  }
}

} // namespace ganglion::storagegrid::detail
