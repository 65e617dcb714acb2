// sprig's string functions (Masterminds/sprig v3 strings.go, crypto.go).

#include <algorithm>
#include <stdexcept>

#include <fmt/format.h>

#include "tmpl/go_template_ast.hpp"

namespace ganglion::dsl::tmpl {

namespace {

using args_t = std::vector<value>;

bool is_go_space(unsigned char c) {
  return c == ' ' || (c >= '\t' && c <= '\r');
}

// Byte offsets of UTF-8 character starts in s, plus s.size().
std::vector<std::size_t> rune_starts(std::string_view s) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80)
      out.push_back(i);
  out.push_back(s.size());
  return out;
}

std::vector<std::string> split(const std::string& s, const std::string& sep) {
  std::vector<std::string> out;
  if (sep.empty()) {
    auto starts = rune_starts(s);
    for (std::size_t i = 0; i + 1 < starts.size(); ++i)
      out.push_back(s.substr(starts[i], starts[i + 1] - starts[i]));
    return out;
  }
  std::size_t pos = 0;
  for (;;) {
    auto hit = s.find(sep, pos);
    if (hit == std::string::npos)
      break;
    out.push_back(s.substr(pos, hit - pos));
    pos = hit + sep.size();
  }
  out.push_back(s.substr(pos));
  return out;
}

std::string s0(args_t& a, std::string_view fn) { return arg_string(a[0], fn); }

value fn_upper(const call_context&, args_t& a) {
  std::string s = s0(a, "upper");
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::toupper(c); });
  return s;
}

value fn_lower(const call_context&, args_t& a) {
  std::string s = s0(a, "lower");
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

value fn_title(const call_context&, args_t& a) {
  std::string s = s0(a, "title");
  unsigned char prev = ' ';
  for (auto& ch : s) {
    auto c = static_cast<unsigned char>(ch);
    bool separator = prev < 0x80 && !std::isalnum(prev) && prev != '_';
    if (separator)
      ch = static_cast<char>(std::toupper(c));
    prev = c;
  }
  return s;
}

value fn_trim(const call_context&, args_t& a) {
  std::string s = s0(a, "trim");
  std::size_t b = 0, e = s.size();
  while (b < e && is_go_space(static_cast<unsigned char>(s[b])))
    ++b;
  while (e > b && is_go_space(static_cast<unsigned char>(s[e - 1])))
    --e;
  return s.substr(b, e - b);
}

value fn_trim_all(const call_context&, args_t& a) {
  std::string cutset = arg_string(a[0], "trimAll");
  std::string s = arg_string(a[1], "trimAll");
  auto b = s.find_first_not_of(cutset);
  if (b == std::string::npos)
    return "";
  return s.substr(b, s.find_last_not_of(cutset) - b + 1);
}

value fn_trim_prefix(const call_context&, args_t& a) {
  std::string p = arg_string(a[0], "trimPrefix");
  std::string s = arg_string(a[1], "trimPrefix");
  return s.rfind(p, 0) == 0 ? s.substr(p.size()) : s;
}

value fn_trim_suffix(const call_context&, args_t& a) {
  std::string p = arg_string(a[0], "trimSuffix");
  std::string s = arg_string(a[1], "trimSuffix");
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0
           ? s.substr(0, s.size() - p.size())
           : s;
}

value fn_replace(const call_context&, args_t& a) {
  std::string from = arg_string(a[0], "replace");
  std::string to = arg_string(a[1], "replace");
  std::string s = arg_string(a[2], "replace");
  auto parts = split(s, from);
  std::string out;
  if (from.empty()) {
    out = to;
    for (const auto& p : parts)
      out += p + to;
    return out;
  }
  for (std::size_t i = 0; i < parts.size(); ++i)
    out += (i ? to : "") + parts[i];
  return out;
}

value fn_contains(const call_context&, args_t& a) {
  return arg_string(a[1], "contains").find(arg_string(a[0], "contains")) != std::string::npos;
}

value fn_has_prefix(const call_context&, args_t& a) {
  return arg_string(a[1], "hasPrefix").rfind(arg_string(a[0], "hasPrefix"), 0) == 0;
}

value fn_has_suffix(const call_context&, args_t& a) {
  std::string p = arg_string(a[0], "hasSuffix");
  std::string s = arg_string(a[1], "hasSuffix");
  return s.size() >= p.size() && s.compare(s.size() - p.size(), p.size(), p) == 0;
}

value fn_split(const call_context&, args_t& a) {
  auto parts = split(arg_string(a[1], "split"), arg_string(a[0], "split"));
  value out = value::object();
  for (std::size_t i = 0; i < parts.size(); ++i)
    out["_" + std::to_string(i)] = parts[i];
  return out;
}

value fn_split_list(const call_context&, args_t& a) {
  value out = value::array();
  for (auto& p : split(arg_string(a[1], "splitList"), arg_string(a[0], "splitList")))
    out.push_back(std::move(p));
  return out;
}

value fn_join(const call_context&, args_t& a) {
  std::string sep = arg_string(a[0], "join");
  const value& v = a[1];
  std::vector<std::string> items;
  if (v.is_array()) {
    for (const auto& e : v)
      if (!e.is_null())
        items.push_back(strval(e));
  } else if (!is_missing(v) && !v.is_null()) {
    items.push_back(strval(v));
  }
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i ? sep : "") + items[i];
  return out;
}

template <bool Double>
value quote_all(const call_context&, args_t& a) {
  std::string out;
  bool first = true;
  for (const auto& v : a) {
    if (is_missing(v) || v.is_null())
      continue;
    out += first ? "" : " ";
    out += Double ? go_quote(strval(v)) : "'" + strval(v) + "'";
    first = false;
  }
  return out;
}

value fn_cat(const call_context&, args_t& a) {
  std::string out;
  bool first = true;
  for (const auto& v : a) {
    if (is_missing(v) || v.is_null())
      continue;
    out += (first ? "" : " ") + print_value(v);
    first = false;
  }
  return out;
}

value fn_nospace(const call_context&, args_t& a) {
  std::string s = s0(a, "nospace");
  s.erase(std::remove_if(s.begin(), s.end(),
                         [](char c) { return is_go_space(static_cast<unsigned char>(c)); }),
          s.end());
  return s;
}

std::string indent(args_t& a, std::string_view fn) {
  auto n = arg_int(a[0], fn);
  if (n < 0)
    n = 0;
  if (n > 1000)
    throw std::runtime_error(fmt::format("indent of {} spaces is too large", n));
  std::string pad(static_cast<std::size_t>(n), ' ');
  std::string s = arg_string(a[1], fn);
  std::string out = pad;
  for (char c : s) {
    out += c;
    if (c == '\n')
      out += pad;
  }
  return out;
}

value fn_indent(const call_context&, args_t& a) { return indent(a, "indent"); }
value fn_nindent(const call_context&, args_t& a) { return "\n" + indent(a, "nindent"); }
value fn_to_string(const call_context&, args_t& a) { return strval(a[0]); }

// Go slices by byte and panics out of range; sprig's substr and trunc inherit both.
std::string byte_slice(const std::string& s, std::int64_t from, std::int64_t to) {
  auto n = static_cast<std::int64_t>(s.size());
  if (from < 0 || to < from || to > n)
    throw std::runtime_error(fmt::format("slice bounds out of range [{}:{}] with length {}",
                                         from, to, n));
  return s.substr(static_cast<std::size_t>(from), static_cast<std::size_t>(to - from));
}

value fn_substr(const call_context&, args_t& a) {
  auto start = arg_int(a[0], "substr");
  auto end = arg_int(a[1], "substr");
  std::string s = arg_string(a[2], "substr");
  auto n = static_cast<std::int64_t>(s.size());
  if (start < 0)
    return byte_slice(s, 0, end);
  if (end < 0 || end > n)
    return byte_slice(s, start, n);
  return byte_slice(s, start, end);
}

value fn_trunc(const call_context&, args_t& a) {
  auto c = arg_int(a[0], "trunc");
  std::string s = arg_string(a[1], "trunc");
  auto n = static_cast<std::int64_t>(s.size());
  if (c < 0 && n + c > 0)
    return s.substr(static_cast<std::size_t>(n + c));
  if (c >= 0 && n > c)
    return s.substr(0, static_cast<std::size_t>(c));
  return s;
}

} // namespace

void add_string_functions(std::vector<function>& out) {
  out.insert(out.end(), {
                          {"upper", fn_upper, 1, 1},
                          {"lower", fn_lower, 1, 1},
                          {"title", fn_title, 1, 1},
                          {"trim", fn_trim, 1, 1},
                          {"trimAll", fn_trim_all, 2, 2},
                          {"trimPrefix", fn_trim_prefix, 2, 2},
                          {"trimSuffix", fn_trim_suffix, 2, 2},
                          {"replace", fn_replace, 3, 3},
                          {"contains", fn_contains, 2, 2},
                          {"hasPrefix", fn_has_prefix, 2, 2},
                          {"hasSuffix", fn_has_suffix, 2, 2},
                          {"split", fn_split, 2, 2},
                          {"splitList", fn_split_list, 2, 2},
                          {"join", fn_join, 2, 2},
                          {"quote", quote_all<true>, 0, -1},
                          {"squote", quote_all<false>, 0, -1},
                          {"cat", fn_cat, 0, -1},
                          {"nospace", fn_nospace, 1, 1},
                          {"indent", fn_indent, 2, 2},
                          {"nindent", fn_nindent, 2, 2},
                          {"toString", fn_to_string, 1, 1},
                          {"substr", fn_substr, 3, 3},
                          {"trunc", fn_trunc, 2, 2},
                        });
}

} // namespace ganglion::dsl::tmpl
