// text/template's builtin functions and the function table.

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include "tmpl/go_template_ast.hpp"

namespace ganglion::dsl::tmpl {

namespace {

enum class basic { invalid, boolean, integer, floating, string, complex };

basic kind_of(const value& v) {
  if (is_missing(v) || v.is_null())
    return basic::invalid;
  if (v.is_boolean())
    return basic::boolean;
  if (v.is_number_integer())
    return basic::integer;
  if (v.is_number_float())
    return basic::floating;
  if (v.is_string())
    return basic::string;
  return basic::complex;
}

[[noreturn]] void fail(const std::string& what) {
  throw std::runtime_error(what);
}

bool equal(const value& a, const value& b) {
  basic ka = kind_of(a);
  basic kb = kind_of(b);
  if (ka != kb) {
    if (ka != basic::invalid && kb != basic::invalid)
      fail("incompatible types for comparison");
    return false;
  }
  if (ka == basic::complex && !is_time(a))
    fail(fmt::format("non-comparable type {}: {}", print_value(a), type_name(a)));
  return ka == basic::invalid || a == b;
}

// -1, 0 or 1; throws for kinds lt/le/gt/ge cannot order.
int order(const value& a, const value& b) {
  basic ka = kind_of(a);
  basic kb = kind_of(b);
  if (ka == basic::complex || ka == basic::invalid || kb == basic::complex ||
      kb == basic::invalid)
    fail("invalid type for comparison");
  if (ka != kb)
    fail("incompatible types for comparison");
  if (ka == basic::boolean)
    fail("invalid type for comparison");
  if (ka == basic::string)
    return a.get_ref<const std::string&>().compare(b.get_ref<const std::string&>()) < 0 ? -1
           : a == b                                                                  ? 0
                                                                                     : 1;
  if (ka == basic::integer) {
    auto x = a.get<std::int64_t>();
    auto y = b.get<std::int64_t>();
    return x < y ? -1 : x == y ? 0 : 1;
  }
  double x = a.get<double>();
  double y = b.get<double>();
  return x < y ? -1 : x == y ? 0 : 1;
}

value fn_eq(const call_context&, std::vector<value>& args) {
  for (std::size_t i = 1; i < args.size(); ++i)
    if (equal(args[0], args[i]))
      return true;
  return false;
}

value fn_ne(const call_context&, std::vector<value>& args) {
  return !equal(args[0], args[1]);
}

value fn_lt(const call_context&, std::vector<value>& a) { return order(a[0], a[1]) < 0; }
value fn_le(const call_context&, std::vector<value>& a) { return order(a[0], a[1]) <= 0; }
value fn_gt(const call_context&, std::vector<value>& a) { return order(a[0], a[1]) > 0; }
value fn_ge(const call_context&, std::vector<value>& a) { return order(a[0], a[1]) >= 0; }

value fn_not(const call_context&, std::vector<value>& args) {
  return !truth(args[0]);
}

value fn_and_or(const call_context&, std::vector<value>& args) {
  return args.back();
}

value fn_len(const call_context&, std::vector<value>& args) {
  const value& v = args[0];
  if (v.is_string())
    return static_cast<std::int64_t>(v.get_ref<const std::string&>().size());
  if (v.is_array() || v.is_object())
    return static_cast<std::int64_t>(v.size());
  if (is_missing(v) || v.is_null())
    fail("len of nil pointer");
  fail(fmt::format("len of type {}", type_name(v)));
}

value fn_index(const call_context&, std::vector<value>& args) {
  value item = args[0];
  for (std::size_t i = 1; i < args.size(); ++i) {
    const value& key = args[i];
    if (is_missing(item) || item.is_null())
      fail("index of untyped nil");
    if (item.is_array() || item.is_string()) {
      if (!key.is_number_integer())
        fail(fmt::format("cannot index slice/array with type {}", type_name(key)));
      auto n = key.get<std::int64_t>();
      std::size_t size = item.is_string() ? item.get_ref<const std::string&>().size() : item.size();
      if (n < 0 || static_cast<std::size_t>(n) >= size)
        fail(fmt::format("index out of range: {}", n));
      if (item.is_string())
        item = static_cast<std::int64_t>(
          static_cast<unsigned char>(item.get_ref<const std::string&>()[static_cast<std::size_t>(n)]));
      else
        item = value(item[static_cast<std::size_t>(n)]);
    } else if (item.is_object()) {
      if (!key.is_string())
        fail(fmt::format("value has type {}; should be string", type_name(key)));
      auto it = item.find(key.get<std::string>());
      item = it == item.end() ? value(nullptr) : value(*it);
    } else {
      fail(fmt::format("can't index item of type {}", type_name(item)));
    }
  }
  return item;
}

value fn_print(const call_context&, std::vector<value>& args) {
  std::string out;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i > 0 && !args[i].is_string() && !args[i - 1].is_string())
      out += ' ';
    out += print_value(args[i]);
  }
  return out;
}

value fn_println(const call_context&, std::vector<value>& args) {
  std::string out;
  for (std::size_t i = 0; i < args.size(); ++i)
    out += (i ? " " : "") + print_value(args[i]);
  return out + "\n";
}

// One printf directive: flags, width, precision and verb.
struct directive {
  bool minus = false, plus = false, zero = false, space = false, sharp = false;
  int width = -1;
  int precision = -1;
  char verb = 'v';
};

std::string bad_verb(const directive& d, const value& v) {
  if (is_missing(v) || v.is_null())
    return fmt::format("%!{}(<nil>)", d.verb);
  return fmt::format("%!{}({}={})", d.verb, type_name(v), print_value(v));
}

std::string pad(std::string s, const directive& d, bool numeric) {
  if (d.width < 0 || s.size() >= static_cast<std::size_t>(d.width))
    return s;
  std::size_t n = static_cast<std::size_t>(d.width) - s.size();
  if (d.minus)
    return s + std::string(n, ' ');
  if (d.zero && numeric) {
    std::size_t at = (!s.empty() && (s[0] == '-' || s[0] == '+' || s[0] == ' ')) ? 1 : 0;
    return s.insert(at, n, '0');
  }
  return std::string(n, ' ') + s;
}

std::string sign(std::string s, const directive& d) {
  if (!s.empty() && s[0] != '-' && (d.plus || d.space))
    s.insert(s.begin(), d.plus ? '+' : ' ');
  return s;
}

std::string format_one(const directive& d, const value& v) {
  if (v.is_array() && d.verb != 'v' && d.verb != 'T') {
    std::string out = "[";
    for (std::size_t i = 0; i < v.size(); ++i)
      out += (i ? " " : "") + format_one(d, v[i]);
    return out + "]";
  }
  switch (d.verb) {
    case 'v':
      return pad(v.is_number() ? sign(print_value(v), d) : print_value(v), d, v.is_number());
    case 'T': return pad(type_name(v), d, false);
    case 's':
      if (!v.is_string() && !is_time(v))
        return bad_verb(d, v);
      {
        std::string s = print_value(v);
        if (d.precision >= 0 && static_cast<std::size_t>(d.precision) < s.size())
          s.resize(static_cast<std::size_t>(d.precision));
        return pad(std::move(s), d, false);
      }
    case 'q':
      return v.is_string() ? pad(go_quote(v.get_ref<const std::string&>()), d, false)
                           : bad_verb(d, v);
    case 't': return v.is_boolean() ? pad(print_value(v), d, false) : bad_verb(d, v);
    case 'd':
      return v.is_number_integer() ? pad(sign(print_value(v), d), d, true) : bad_verb(d, v);
    case 'c':
      return v.is_number_integer() && v.get<std::int64_t>() >= 0 && v.get<std::int64_t>() < 128
               ? pad(std::string(1, static_cast<char>(v.get<std::int64_t>())), d, false)
               : bad_verb(d, v);
    case 'x':
    case 'X': {
      std::string out;
      if (v.is_string()) {
        for (unsigned char c : v.get_ref<const std::string&>())
          out += d.verb == 'x' ? fmt::format("{:02x}", c) : fmt::format("{:02X}", c);
      } else if (v.is_number_integer()) {
        auto n = v.get<std::int64_t>();
        auto magnitude = n < 0 ? -static_cast<std::uint64_t>(n) : static_cast<std::uint64_t>(n);
        out = std::string(n < 0 ? "-" : "") +
              (d.verb == 'x' ? fmt::format("{:x}", magnitude) : fmt::format("{:X}", magnitude));
      } else {
        return bad_verb(d, v);
      }
      return pad(std::move(out), d, v.is_number());
    }
    case 'f':
    case 'F':
    case 'e':
    case 'E':
    case 'g':
    case 'G': {
      if (!v.is_number_float())
        return bad_verb(d, v);
      double f = v.get<double>();
      std::string out;
      if (!std::isfinite(f))
        out = format_float_v(f);
      else if ((d.verb == 'g' || d.verb == 'G') && d.precision < 0)
        out = format_float_v(f);
      else
        out = fmt::format(fmt::runtime(fmt::format("{{:.{}{}}}", d.precision < 0 ? 6 : d.precision,
                                                   d.verb == 'F' ? 'f' : d.verb)),
                          f);
      return pad(sign(std::move(out), d), d, true);
    }
    default: return bad_verb(d, v);
  }
}

value fn_printf(const call_context&, std::vector<value>& args) {
  std::string format = arg_string(args[0], "printf");
  std::string out;
  std::size_t next = 1;
  constexpr int too_large = 1000000;
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') {
      out += format[i];
      continue;
    }
    directive d;
    ++i;
    for (; i < format.size(); ++i) {
      char c = format[i];
      if (c == '-') d.minus = true;
      else if (c == '+') d.plus = true;
      else if (c == '0') d.zero = true;
      else if (c == ' ') d.space = true;
      else if (c == '#') d.sharp = true;
      else break;
    }
    auto read_number = [&](int& target) {
      while (i < format.size() && std::isdigit(static_cast<unsigned char>(format[i]))) {
        target = std::max(target, 0) * 10 + (format[i] - '0');
        if (target > too_large)
          target = too_large + 1;
        ++i;
      }
    };
    read_number(d.width);
    if (i < format.size() && format[i] == '.') {
      ++i;
      d.precision = 0;
      read_number(d.precision);
    }
    if (i >= format.size()) {
      out += "%!(NOVERB)";
      break;
    }
    d.verb = format[i];
    if (d.width > too_large) {
      out += "%!(BADWIDTH)";
      continue;
    }
    if (d.precision > too_large) {
      out += "%!(BADPREC)";
      continue;
    }
    if (d.verb == '%') {
      out += '%';
      continue;
    }
    if (next >= args.size()) {
      out += fmt::format("%!{}(MISSING)", d.verb);
      continue;
    }
    out += format_one(d, args[next++]);
  }
  if (next < args.size()) {
    out += "%!(EXTRA ";
    for (std::size_t k = next; k < args.size(); ++k)
      out += (k > next ? ", " : "") + type_name(args[k]) + "=" + print_value(args[k]);
    out += ")";
  }
  return out;
}

std::vector<function> all_functions() {
  std::vector<function> out;
  add_builtin_functions(out);
  add_string_functions(out);
  add_data_functions(out);
  add_encoding_functions(out);
  add_time_regex_functions(out);
  std::sort(out.begin(), out.end(),
            [](const function& a, const function& b) { return a.name < b.name; });
  return out;
}

} // namespace

void add_builtin_functions(std::vector<function>& out) {
  out.insert(out.end(), {
                          {"and", fn_and_or, 1, -1},
                          {"or", fn_and_or, 1, -1},
                          {"not", fn_not, 1, 1},
                          {"len", fn_len, 1, 1},
                          {"index", fn_index, 1, -1},
                          {"eq", fn_eq, 2, -1},
                          {"ne", fn_ne, 2, 2},
                          {"lt", fn_lt, 2, 2},
                          {"le", fn_le, 2, 2},
                          {"gt", fn_gt, 2, 2},
                          {"ge", fn_ge, 2, 2},
                          {"print", fn_print, 0, -1},
                          {"printf", fn_printf, 1, -1},
                          {"println", fn_println, 0, -1},
                        });
}

const function* find_function(std::string_view name) {
  static const std::vector<function> table = all_functions();
  auto it = std::lower_bound(table.begin(), table.end(), name,
                             [](const function& f, std::string_view n) { return f.name < n; });
  return it != table.end() && it->name == name ? &*it : nullptr;
}

} // namespace ganglion::dsl::tmpl
