// sprig's defaults, lists, dicts, conversions and integer math (sprig v3 defaults.go,
// list.go, dict.go, numeric.go).

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include <fmt/format.h>

#include "tmpl/go_template_ast.hpp"

namespace ganglion::dsl::tmpl {

namespace {

using args_t = std::vector<value>;

bool empty(const value& v) {
  return !truth(v);
}

const value& arg_map(const value& v, std::string_view fn) {
  if (v.is_object())
    return v;
  throw std::runtime_error(
    fmt::format("template: {}: wrong type for value; expected map[string]interface {{}}; got {}",
                fn, type_name(v)));
}

value fn_default(const call_context&, args_t& a) {
  if (a.size() < 2 || empty(a[1]))
    return a[0];
  return a[1];
}

value fn_empty(const call_context&, args_t& a) { return empty(a[0]); }

value fn_coalesce(const call_context&, args_t& a) {
  for (const auto& v : a)
    if (!empty(v))
      return v;
  return nullptr;
}

value fn_list(const call_context&, args_t& a) {
  value out = value::array();
  for (auto& v : a)
    out.push_back(is_missing(v) ? value(nullptr) : std::move(v));
  return out;
}

value fn_dict(const call_context&, args_t& a) {
  value out = value::object();
  for (std::size_t i = 0; i < a.size(); i += 2) {
    value v = i + 1 < a.size() ? a[i + 1] : value("");
    out[strval(a[i])] = is_missing(v) ? value(nullptr) : std::move(v);
  }
  return out;
}

value fn_get(const call_context&, args_t& a) {
  const value& m = arg_map(a[0], "get");
  auto it = m.find(arg_string(a[1], "get"));
  return it == m.end() ? value("") : value(*it);
}

value fn_has_key(const call_context&, args_t& a) {
  return arg_map(a[0], "hasKey").contains(arg_string(a[1], "hasKey"));
}

value fn_keys(const call_context&, args_t& a) {
  std::vector<std::string> keys;
  for (const auto& m : a)
    for (auto it = arg_map(m, "keys").begin(); it != m.end(); ++it)
      keys.push_back(it.key());
  std::sort(keys.begin(), keys.end());
  return keys;
}

value fn_int(const call_context&, args_t& a) { return to_int64(a[0]); }
value fn_float64(const call_context&, args_t& a) { return to_float64(a[0]); }

value fn_atoi(const call_context&, args_t& a) {
  std::string s = arg_string(a[0], "atoi");
  std::int64_t n = 0;
  const char* first = s.data() + (!s.empty() && s[0] == '+' ? 1 : 0);
  auto res = std::from_chars(first, s.data() + s.size(), n);
  return res.ec == std::errc() && res.ptr == s.data() + s.size() && first != res.ptr ? n : 0;
}

value fn_add(const call_context&, args_t& a) {
  std::int64_t sum = 0;
  for (const auto& v : a)
    sum = static_cast<std::int64_t>(static_cast<std::uint64_t>(sum) +
                                    static_cast<std::uint64_t>(to_int64(v)));
  return sum;
}

value fn_sub(const call_context&, args_t& a) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(to_int64(a[0])) -
                                   static_cast<std::uint64_t>(to_int64(a[1])));
}

value fn_mul(const call_context&, args_t& a) {
  std::uint64_t product = 1;
  for (const auto& v : a)
    product *= static_cast<std::uint64_t>(to_int64(v));
  return static_cast<std::int64_t>(product);
}

std::int64_t divisor(const value& v) {
  auto d = to_int64(v);
  if (d == 0)
    throw std::runtime_error("runtime error: integer divide by zero");
  return d;
}

value fn_div(const call_context&, args_t& a) {
  auto d = divisor(a[1]);
  auto n = to_int64(a[0]);
  return d == -1 ? static_cast<std::int64_t>(0 - static_cast<std::uint64_t>(n)) : n / d;
}

value fn_mod(const call_context&, args_t& a) {
  auto d = divisor(a[1]);
  return d == -1 ? std::int64_t{0} : to_int64(a[0]) % d;
}

value fn_max(const call_context&, args_t& a) {
  std::int64_t m = to_int64(a[0]);
  for (const auto& v : a)
    m = std::max(m, to_int64(v));
  return m;
}

value fn_min(const call_context&, args_t& a) {
  std::int64_t m = to_int64(a[0]);
  for (const auto& v : a)
    m = std::min(m, to_int64(v));
  return m;
}

} // namespace

void add_data_functions(std::vector<function>& out) {
  out.insert(out.end(), {
                          {"default", fn_default, 1, -1},
                          {"empty", fn_empty, 1, 1},
                          {"coalesce", fn_coalesce, 0, -1},
                          {"list", fn_list, 0, -1},
                          {"dict", fn_dict, 0, -1},
                          {"get", fn_get, 2, 2},
                          {"hasKey", fn_has_key, 2, 2},
                          {"keys", fn_keys, 0, -1},
                          {"int", fn_int, 1, 1},
                          {"int64", fn_int, 1, 1},
                          {"float64", fn_float64, 1, 1},
                          {"atoi", fn_atoi, 1, 1},
                          {"add", fn_add, 0, -1},
                          {"sub", fn_sub, 2, 2},
                          {"mul", fn_mul, 1, -1},
                          {"div", fn_div, 2, 2},
                          {"mod", fn_mod, 2, 2},
                          {"max", fn_max, 1, -1},
                          {"min", fn_min, 1, -1},
                        });
}

} // namespace ganglion::dsl::tmpl
