// Compiles gjson path text (tidwall/gjson v1.19 SYNTAX.md, parseObjectPath / parseArrayPath /
// parseQuery / parseSubSelectors) into path_ast.

#include <charconv>

#include <fmt/format.h>
#include <simdjson.h>

#include "ganglion/dsl/compile_error.hpp"
#include "path/json_path_ast.hpp"
#include "go/strconv.hpp"
#include "path/json_path_parse.hpp"

namespace ganglion::dsl::path_ast {

namespace {

constexpr auto npos = std::string_view::npos;

/// How deeply queries, multipaths and `#.` sub-paths may nest.
constexpr int max_nesting = 64;

class parser {
public:
  parser(std::string_view root, std::string_view text, std::size_t base, int depth = 0)
    : root_(root), text_(text), base_(base), depth_(depth) {}

  path run() {
    if (text_.empty())
      fail("empty path", 0);
    if (text_.size() >= 2 && text_[0] == '.' && text_[1] == '.')
      fail("JSON Lines paths ('..') are not supported", 0);
    path out;
    std::size_t p = 0;
    for (;;) {
      std::size_t next = parse_segment(p, out);
      if (next == npos)
        return out;
      if (next >= text_.size())
        fail("path ends with a separator", text_.size());
      p = next;
    }
  }

private:
  [[noreturn]] void fail(std::string_view what, std::size_t at) const {
    throw compile_error(fmt::format("path '{}': {} (at offset {})", root_, what, base_ + at),
                        base_ + at);
  }

  path sub(std::size_t from, std::size_t to) const {
    if (depth_ >= max_nesting)
      fail("path is nested too deeply", from);
    return parser(root_, text_.substr(from, to - from), base_ + from, depth_ + 1).run();
  }

  // The end of the JSON value (or bracketed group) starting at i.
  std::size_t value_end(std::size_t i) const {
    char c = text_[i];
    if (c == '"') {
      for (++i; i < text_.size(); ++i) {
        if (text_[i] == '\\')
          ++i;
        else if (text_[i] == '"')
          return i + 1;
      }
      fail("unterminated string", text_.size());
    }
    if (c == '{' || c == '[' || c == '(') {
      int depth = 0;
      for (; i < text_.size(); ++i) {
        char d = text_[i];
        if (d == '\\') {
          ++i;
        } else if (d == '"') {
          i = value_end(i) - 1;
        } else if (d == '{' || d == '[' || d == '(') {
          ++depth;
        } else if (d == '}' || d == ']' || d == ')') {
          if (--depth == 0)
            return i + 1;
        }
      }
      fail("unbalanced brackets", text_.size());
    }
    while (i < text_.size() && text_[i] != '.' && text_[i] != '|')
      ++i;
    return i;
  }

  // The first `|` outside escapes, strings and brackets at or after `from`.
  std::size_t top_level_pipe(std::size_t from) const {
    for (std::size_t i = from; i < text_.size(); ++i) {
      char c = text_[i];
      if (c == '\\')
        ++i;
      else if (c == '"' || c == '(' || c == '[' || c == '{')
        i = value_end(i) - 1;
      else if (c == '|')
        return i;
    }
    return npos;
  }

  // What follows a segment that ends at `end`: npos at the end, else the next segment's start.
  std::size_t after(std::size_t end, std::string_view what) const {
    if (end == text_.size())
      return npos;
    if (text_[end] == '.' || text_[end] == '|')
      return end + 1;
    fail(fmt::format("unexpected '{}' after {}", text_[end], what), end);
  }

  std::string_view word_at(std::size_t p) const {
    std::size_t e = p;
    while (e < text_.size() && text_[e] != '.' && text_[e] != '|' && text_[e] != ':')
      ++e;
    return text_.substr(p, e - p);
  }

  bool starts_segment(std::size_t q) const {
    char c = text_[q];
    return c == '[' || c == '{' || (c == '@' && is_gjson_modifier(word_at(q + 1)));
  }

  std::size_t parse_segment(std::size_t p, path& out) {
    segment seg;
    std::size_t next;
    char c = text_[p];
    if (c == '@' && is_gjson_modifier(word_at(p + 1)))
      next = parse_modifier(p, seg);
    else if (c == '!')
      next = parse_literal(p, seg);
    else if (c == '[' || c == '{')
      next = parse_multipath(p, seg);
    else
      next = parse_chain(p, seg);
    out.segments.push_back(std::move(seg));
    return next;
  }

  std::size_t parse_modifier(std::size_t p, segment& seg) {
    auto name = word_at(p + 1);
    std::size_t q = p + 1 + name.size();
    seg.kind = segment_kind::modifier;
    auto kind = supported_modifier(name);
    if (!kind)
      fail(fmt::format("the gjson modifier @{} is not supported", name), p);
    seg.modifier = *kind;
    if (q < text_.size() && text_[q] == ':') {
      std::size_t a = q + 1;
      std::size_t e = a;
      if (a < text_.size() && (text_[a] == '{' || text_[a] == '[' || text_[a] == '"')) {
        e = value_end(a);
      } else {
        while (e < text_.size() && text_[e] != '|') {
          char d = text_[e];
          e = (d == '{' || d == '[' || d == '"' || d == '(') ? value_end(e) : e + 1;
        }
      }
      auto arg = text_.substr(a, e - a);
      if (seg.modifier == modifier_kind::flatten)
        seg.modifier_flag = object_flag(arg, "deep");
      else if (seg.modifier == modifier_kind::join)
        seg.modifier_flag = object_flag(arg, "preserve");
      q = e;
    }
    return after(q, "a modifier");
  }

  std::size_t parse_literal(std::size_t p, segment& seg) {
    std::size_t v = p + 1;
    if (v == text_.size())
      fail("empty literal after '!'", v);
    std::size_t e = v;
    char c = text_[v];
    if (c == '{' || c == '[' || c == '"') {
      e = value_end(v);
    } else {
      bool number = c == '-' || c == '+' || (c >= '0' && c <= '9');
      auto accepts = [&](char d) {
        return number ? std::string_view("0123456789+-.eE").find(d) != npos
                      : (d >= 'a' && d <= 'z') || (d >= 'A' && d <= 'Z');
      };
      while (e < text_.size() && accepts(text_[e]))
        ++e;
    }
    auto lit = text_.substr(v, e - v);
    simdjson::dom::parser json;
    simdjson::dom::element parsed;
    if (json.parse(std::string(lit)).get(parsed))
      fail(fmt::format("literal '{}' is not valid JSON", lit), v);
    seg.kind = segment_kind::literal;
    seg.literal = simdjson::to_string(parsed);
    return after(e, "a literal");
  }

  std::size_t parse_multipath(std::size_t p, segment& seg) {
    bool object = text_[p] == '{';
    seg.kind = object ? segment_kind::multipath_object : segment_kind::multipath_array;
    std::size_t modifier = 0, colon = 0, start = p + 1;
    int depth = 1;
    auto push = [&](std::size_t i) {
      std::size_t from = colon ? colon + 1 : start;
      std::string_view name = colon ? text_.substr(start, colon - start) : std::string_view{};
      selector sel;
      if (i > from)
        sel.value = std::make_shared<path>(sub(from, i));
      if (object)
        sel.name_json = selector_name(name, text_.substr(from, i - from));
      seg.selectors.push_back(std::move(sel));
      colon = 0;
      modifier = 0;
      start = i + 1;
    };
    for (std::size_t i = p + 1; i < text_.size(); ++i) {
      switch (text_[i]) {
        case '\\': ++i; break;
        case '@':
          if (!modifier && (text_[i - 1] == '.' || text_[i - 1] == '|'))
            modifier = i;
          break;
        case ':':
          if (!modifier && !colon && depth == 1)
            colon = i;
          break;
        case ',':
          if (depth == 1)
            push(i);
          break;
        case '"': i = value_end(i) - 1; break;
        case '[': case '(': case '{': ++depth; break;
        case ']': case ')': case '}':
          if (--depth == 0) {
            push(i);
            return after(i + 1, "a multipath");
          }
          break;
      }
    }
    fail("unbalanced multipath", p);
  }

  std::size_t parse_chain(std::size_t p, segment& seg) {
    seg.kind = segment_kind::chain;
    for (;;) {
      if (text_[p] == '#') {
        std::size_t next;
        if (parse_array_component(p, seg, next))
          return next;
      }
      component comp;
      bool escaped = false;
      std::size_t i = p;
      for (; i < text_.size() && text_[i] != '.' && text_[i] != '|'; ++i) {
        char c = text_[i];
        if (c == '\\') {
          escaped = true;
          if (++i == text_.size())
            break;
          comp.key.push_back(text_[i]);
          comp.pattern.push_back('\\');
          comp.pattern.push_back(text_[i]);
          continue;
        }
        comp.wild |= c == '*' || c == '?';
        comp.key.push_back(c);
        comp.pattern.push_back(c);
      }
      if (i == p)
        fail("empty key", p);
      if (!escaped) {
        std::uint64_t n = 0;
        auto [end, ec] = std::from_chars(comp.key.data(), comp.key.data() + comp.key.size(), n);
        if (ec == std::errc() && end == comp.key.data() + comp.key.size())
          comp.index = n;
      }
      seg.chain.push_back(std::move(comp));
      if (i == text_.size())
        return npos;
      if (text_[i] == '|' || (i + 1 < text_.size() && starts_segment(i + 1)))
        return i + 1;
      if (i + 1 == text_.size())
        fail("path ends with '.'", i);
      p = i + 1;
    }
  }

  // `#`, `#.rest`, `#(query)`, `#(query)#`, `#(query).rest`; false for another key that starts
  // with `#`.
  bool parse_array_component(std::size_t p, segment& seg, std::size_t& next) {
    component comp;
    comp.key = "#";
    comp.pattern = "#";
    std::size_t e = p + 1;
    if (e == text_.size() || text_[e] == '|') {
      comp.kind = component_kind::count;
      next = e == text_.size() ? npos : e + 1;
    } else if (text_[e] == '.') {
      comp.kind = component_kind::map;
      next = rest_of_chain(e + 1, comp);
    } else if (text_[e] == '(' || text_[e] == '[') {
      comp.kind = component_kind::query;
      e = parse_query(p, comp);
      if (e < text_.size() && text_[e] == '#') {
        comp.filter->all = true;
        ++e;
      }
      comp.key = comp.pattern = std::string(text_.substr(p, e - p));
      if (e < text_.size() && text_[e] == '.')
        next = rest_of_chain(e + 1, comp);
      else
        next = after(e, "a query");
    } else {
      return false;
    }
    seg.chain.push_back(std::move(comp));
    return true;
  }

  // Compiles the text from `from` up to the next top-level pipe into comp.rest.
  std::size_t rest_of_chain(std::size_t from, component& comp) {
    std::size_t pipe = top_level_pipe(from);
    std::size_t to = pipe == npos ? text_.size() : pipe;
    if (to == from)
      fail("empty path after '.'", from);
    comp.rest = std::make_shared<path>(sub(from, to));
    return pipe == npos ? npos : pipe + 1;
  }

  // Parses `#(...)` at p into comp.filter; returns the offset after the closing bracket.
  std::size_t parse_query(std::size_t p, component& comp) {
    std::size_t i = p + 2, j = npos;
    int depth = 1;
    for (; i < text_.size(); ++i) {
      char c = text_[i];
      if (depth == 1 && j == npos && std::string_view("!=<>%").find(c) != npos) {
        j = i;
        continue;
      }
      if (c == '\\') {
        ++i;
      } else if (c == '[' || c == '(') {
        ++depth;
      } else if (c == ']' || c == ')') {
        if (--depth == 0)
          break;
      } else if (c == '"') {
        i = value_end(i) - 1;
      }
    }
    if (depth > 0)
      fail("unbalanced query", p);
    query q;
    std::size_t subject_end = j == npos ? i : j;
    auto subject = trim(text_.substr(p + 2, subject_end - p - 2));
    if (!subject.empty())
      q.subject = std::make_shared<path>(
        sub(static_cast<std::size_t>(subject.data() - text_.data()),
            static_cast<std::size_t>(subject.data() - text_.data()) + subject.size()));
    if (j != npos && !parse_comparison(trim(text_.substr(j, i - j)), q))
      fail(fmt::format("invalid query operator in '{}'", trim(text_.substr(j, i - j))), j);
    comp.filter = std::move(q);
    return i + 1;
  }

  std::string_view root_;
  std::string_view text_;
  std::size_t base_;
  int depth_;
};

} // namespace

path parse(std::string_view text, std::size_t base) {
  return parser(text, text, base).run();
}

} // namespace ganglion::dsl::path_ast
