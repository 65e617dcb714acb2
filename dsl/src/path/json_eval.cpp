// Evaluates compiled gjson paths on simdjson DOM elements with gjson's semantics (Get,
// parseObject, parseArray, queryMatches).

#include "ganglion/dsl/path/json_eval.hpp"

#include <cctype>

#include <fmt/format.h>

#include "ganglion/dsl/budget_exceeded.hpp"
#include "go/strconv.hpp"
#include "path/json_path_ast.hpp"
#include "path/json_path_node.hpp"

namespace ganglion::dsl {

namespace {

using path_ast::component;
using path_ast::component_kind;
using path_eval::maybe;
using path_eval::node;
using simdjson::dom::element;
using simdjson::dom::element_type;

maybe eval_path(const path_ast::path& p, const node& value, path_eval::budget& b);

bool is_number(element_type t) {
  return t == element_type::INT64 || t == element_type::UINT64 || t == element_type::DOUBLE;
}

double number_of(element el) {
  switch (el.type()) {
    case element_type::INT64: return static_cast<double>(el.get_int64().value_unsafe());
    case element_type::UINT64: return static_cast<double>(el.get_uint64().value_unsafe());
    default: return el.get_double().value_unsafe();
  }
}

bool truthy(const maybe& v) {
  if (!v)
    return false;
  switch (v->el.type()) {
    case element_type::BOOL: return v->el.get_bool().value_unsafe();
    case element_type::STRING: {
      std::string s(v->el.get_string().value_unsafe());
      for (auto& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      return go::parse_bool(s).value_or(false);
    }
    default: return is_number(v->el.type()) && number_of(v->el) != 0;
  }
}

bool falsy(const maybe& v) {
  if (!v)
    return true;
  switch (v->el.type()) {
    case element_type::NULL_VALUE: return true;
    case element_type::BOOL: return !v->el.get_bool().value_unsafe();
    case element_type::STRING: {
      std::string s(v->el.get_string().value_unsafe());
      for (auto& c : s)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      auto b = go::parse_bool(s);
      return b && !*b;
    }
    default: return is_number(v->el.type()) && number_of(v->el) == 0;
  }
}

template <class T>
bool compare(path_ast::query_op op, const T& a, const T& b) {
  using path_ast::query_op;
  switch (op) {
    case query_op::eq: return a == b;
    case query_op::ne: return a != b;
    case query_op::lt: return a < b;
    case query_op::le: return a <= b;
    case query_op::gt: return a > b;
    case query_op::ge: return a >= b;
    default: return false;
  }
}

// gjson's comparison of a boolean with the text on the right.
bool compare_bool(path_ast::query_op op, bool value, std::string_view rhs) {
  using path_ast::query_op;
  if (value) {
    switch (op) {
      case query_op::eq: return rhs == "true";
      case query_op::ne: return rhs != "true";
      case query_op::gt: return rhs == "false";
      case query_op::ge: return true;
      default: return false;
    }
  }
  switch (op) {
    case query_op::eq: return rhs == "false";
    case query_op::ne: return rhs != "false";
    case query_op::lt: return rhs == "true";
    case query_op::le: return true;
    default: return false;
  }
}

bool query_matches(const path_ast::query& q, const maybe& value) {
  using path_ast::query_op;
  using path_ast::tilde;
  if (q.to_bool != tilde::none) {
    bool ish = false;
    switch (q.to_bool) {
      case tilde::any: ish = value.has_value(); break;
      case tilde::null_: ish = !value || value->el.type() == element_type::NULL_VALUE; break;
      case tilde::truthy: ish = truthy(value); break;
      case tilde::falsy: ish = falsy(value); break;
      default: return false;
    }
    return q.op == query_op::exists || compare_bool(q.op, ish, "true");
  }
  if (!value)
    return false;
  if (q.op == query_op::exists)
    return true;
  auto type = value->el.type();
  if (type == element_type::STRING) {
    auto s = value->el.get_string().value_unsafe();
    if (q.op == query_op::like)
      return go::wildcard_match(s, q.value);
    if (q.op == query_op::not_like)
      return !go::wildcard_match(s, q.value);
    return compare(q.op, s, std::string_view(q.value));
  }
  if (is_number(type))
    return compare(q.op, number_of(value->el), q.number);
  if (type == element_type::BOOL)
    return compare_bool(q.op, value->el.get_bool().value_unsafe(), q.value);
  return false;
}

// The query subject of one array element: the element itself, or `subject` applied to it.
maybe query_subject(const path_ast::query& q, const node& item, path_eval::budget& b) {
  if (!path_eval::is_container(item.el))
    return q.subject ? std::nullopt : maybe(item);
  if (q.subject)
    return eval_path(*q.subject, item, b);
  if (item.el.type() != element_type::OBJECT)
    return std::nullopt;
  for (auto field : path_eval::as_object(item.el))
    if (field.key.empty())
      return node{field.value, item.owner};
  return std::nullopt;
}

maybe eval_chain(const std::vector<component>& chain, std::size_t i, const node& value,
                 path_eval::budget& b);

maybe on_object(const std::vector<component>& chain, std::size_t i, const node& value,
                path_eval::budget& b) {
  const component& c = chain[i];
  if (c.kind == component_kind::query)
    return std::nullopt;
  bool last = i + 1 == chain.size();
  for (auto field : path_eval::as_object(value.el)) {
    b.step();
    if (c.wild ? !go::wildcard_match(field.key, c.pattern) : field.key != c.key)
      continue;
    node child{field.value, value.owner};
    if (c.kind == component_kind::map)
      return eval_path(*c.rest, child, b);
    if (last)
      return child;
    if (!path_eval::is_container(child.el))
      continue;
    if (auto found = eval_chain(chain, i + 1, child, b))
      return found;
  }
  return std::nullopt;
}

maybe on_array(const std::vector<component>& chain, std::size_t i, const node& value,
               path_eval::budget& b) {
  const component& c = chain[i];
  auto array = path_eval::as_array(value.el);
  switch (c.kind) {
    case component_kind::count:
      return path_eval::synthesize(std::to_string(array.size()), b);
    case component_kind::map: {
      std::string out = "[";
      for (auto item : array) {
        b.step();
        if (auto r = eval_path(*c.rest, node{item, value.owner}, b)) {
          if (out.size() > 1)
            out.push_back(',');
          path_eval::append_raw(out, r->el);
          b.check(out.size());
        }
      }
      out.push_back(']');
      return path_eval::synthesize(std::move(out), b);
    }
    case component_kind::query: {
      const auto& q = *c.filter;
      std::string out = "[";
      for (auto item : array) {
        node n{item, value.owner};
        b.step();
        if (!query_matches(q, query_subject(q, n, b)))
          continue;
        maybe r = c.rest ? eval_path(*c.rest, n, b) : maybe(n);
        if (!q.all)
          return r;
        if (r) {
          if (out.size() > 1)
            out.push_back(',');
          path_eval::append_raw(out, r->el);
          b.check(out.size());
        }
      }
      if (!q.all)
        return std::nullopt;
      out.push_back(']');
      return path_eval::synthesize(std::move(out), b);
    }
    case component_kind::key:
      break;
  }
  if (!c.index)
    return std::nullopt;
  element item;
  if (array.at(*c.index).get(item))
    return std::nullopt;
  node child{item, value.owner};
  if (i + 1 == chain.size())
    return child;
  if (!path_eval::is_container(item))
    return std::nullopt;
  return eval_chain(chain, i + 1, child, b);
}

maybe eval_chain(const std::vector<component>& chain, std::size_t i, const node& value,
                 path_eval::budget& b) {
  switch (value.el.type()) {
    case element_type::OBJECT: return on_object(chain, i, value, b);
    case element_type::ARRAY: return on_array(chain, i, value, b);
    default: return std::nullopt;
  }
}

// on_object / on_array for chains of plain keys and indexes, without owners or optionals:
// the same first-match-with-backtracking walk.
bool walk_plain(const std::vector<component>& chain, std::size_t i, element value, element& out) {
  const component& c = chain[i];
  bool last = i + 1 == chain.size();
  simdjson::dom::object object;
  if (!value.get(object)) {
    for (auto field : object) {
      if (field.key != c.key)
        continue;
      if (last) {
        out = field.value;
        return true;
      }
      if (path_eval::is_container(field.value) && walk_plain(chain, i + 1, field.value, out))
        return true;
    }
    return false;
  }
  simdjson::dom::array array;
  element item;
  if (!c.index || value.get(array) || array.at(*c.index).get(item))
    return false;
  if (last) {
    out = item;
    return true;
  }
  return path_eval::is_container(item) && walk_plain(chain, i + 1, item, out);
}

maybe eval_multipath(const path_ast::segment& seg, const node& value, path_eval::budget& b) {
  bool object = seg.kind == path_ast::segment_kind::multipath_object;
  std::string out(1, object ? '{' : '[');
  bool first = true;
  for (const auto& sel : seg.selectors) {
    if (!sel.value)
      continue;
    auto r = eval_path(*sel.value, value, b);
    if (!r)
      continue;
    if (!first)
      out.push_back(',');
    first = false;
    if (object) {
      out += sel.name_json;
      out.push_back(':');
    }
    path_eval::append_raw(out, r->el);
    b.check(out.size());
  }
  out.push_back(object ? '}' : ']');
  return path_eval::synthesize(std::move(out), b);
}

maybe eval_segment(const path_ast::segment& seg, const node& value, path_eval::budget& b) {
  b.step();
  using path_ast::segment_kind;
  switch (seg.kind) {
    case segment_kind::chain: return eval_chain(seg.chain, 0, value, b);
    case segment_kind::modifier: return path_eval::apply_modifier(seg, value, b);
    case segment_kind::literal: return path_eval::synthesize(seg.literal, b);
    default: return eval_multipath(seg, value, b);
  }
}

maybe eval_path(const path_ast::path& p, const node& value, path_eval::budget& b) {
  maybe current = value;
  for (const auto& seg : p.segments) {
    current = eval_segment(seg, *current, b);
    if (!current)
      return std::nullopt;
  }
  return current;
}

// The path as an error message names it: long hostile paths cut at a character boundary near
// 80 bytes.
std::string shortened(std::string_view text) {
  std::size_t shown = 80;
  if (text.size() <= shown)
    return std::string(text);
  while (shown > 0 && (static_cast<unsigned char>(text[shown]) & 0xC0) == 0x80)
    --shown;
  return fmt::format("{}… ({} bytes)", text.substr(0, shown), text.size());
}

} // namespace

path_result evaluate(const json_path& path, element root) {
  if (path.compiled().plain) {
    element found;
    const auto& chain = path.compiled().compiled.segments[0].chain;
    if (!path_eval::is_container(root) || !walk_plain(chain, 0, root, found))
      return {};
    return path_result(found);
  }
  path_eval::budget b;
  maybe r;
  try {
    r = eval_path(path.compiled().compiled, node{root, nullptr}, b);
  } catch (const budget_exceeded& e) {
    throw budget_exceeded(fmt::format("path '{}': {}", shortened(path.text()), e.what()));
  }
  if (!r)
    return {};
  if (r->owner)
    return path_result(r->el, std::move(r->owner));
  return path_result(r->el);
}

} // namespace ganglion::dsl
