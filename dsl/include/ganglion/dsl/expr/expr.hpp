#pragma once

// Not installed: an internal language used by expr filters.
//
// The expression language of Knetic/govaluate as Argo Events uses it (no functions):
// `== != > >= < <= =~ !~ in && || ! ?: ?? + - * / % ** & | ^ << >> ~`, unary `-`,
// parentheses, `,` lists (`x in (1, 2)`), single- or double-quoted strings with `\` escapes,
// float64 numbers (also `0x` hex), `true` / `false`, variables (`name`, `dep\-1`,
// `[any text]`) and `a.b` member access.
//
// Same as govaluate: precedence (loosest first) `,` < `?: ??` < `||` < `&&` < comparators
// < `& | ^` < `<< >>` < `+ -` < `* / %` < `**` < prefix `! - ~`; every binary operator is
// left-associative; type rules and error texts ("Value 'x' cannot be used with the comparator
// '>', it is not a number", "No parameter 'x' found."); `+` concatenates when either side is a
// string; `==` is deep equality without conversion (1 != "1"); `&&`, `||`, `?`, `:`, `??`
// short-circuit; `=~` matches unanchored (RE2 here, Go regexp there).
//
// Different from govaluate:
// - Compiled once: a syntax error or an invalid literal regex is a compile_error at load time.
// - `a.b` reads member `b` of an object (govaluate only reads Go struct fields and fails on
//   the JSON objects Argo binds).
// - A string literal ends at the quote that opened it (govaluate ends it at either quote), and
//   string literals are never read as dates.
// - Expressions nested deeper than 256 levels are rejected.

#include <map>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include <simdjson.h>

namespace ganglion::dsl {

struct expr_array;
struct expr_object;

/// A value of the expression language: nil, bool, float64, string, array or object.
struct expr_value {
  std::variant<std::monostate, bool, double, std::string, std::shared_ptr<const expr_array>,
               std::shared_ptr<const expr_object>>
    v;

  expr_value() = default;
  /// A bool.
  expr_value(bool b) : v(b) {}
  /// A number.
  expr_value(double d) : v(d) {}
  /// A string.
  expr_value(std::string s) : v(std::move(s)) {}
  /// A string.
  expr_value(const char* s) : v(std::string(s)) {}
  /// An array.
  expr_value(std::shared_ptr<const expr_array> a) : v(std::move(a)) {}
  /// An object.
  expr_value(std::shared_ptr<const expr_object> o) : v(std::move(o)) {}

  /// True for nil.
  bool is_nil() const noexcept { return v.index() == 0; }
  /// True for a bool.
  bool is_bool() const noexcept { return v.index() == 1; }
  /// True for a number.
  bool is_number() const noexcept { return v.index() == 2; }
  /// True for a string.
  bool is_string() const noexcept { return v.index() == 3; }
  /// True for an array.
  bool is_array() const noexcept { return v.index() == 4; }
  /// True for an object.
  bool is_object() const noexcept { return v.index() == 5; }

  /// gjson's Value() of a JSON element: numbers as float64, objects and arrays converted deeply.
  static expr_value from_json(simdjson::dom::element element);
};

/// The elements of an array value.
struct expr_array {
  std::vector<expr_value> items;
};

/// The members of an object value, by key.
struct expr_object {
  std::map<std::string, expr_value, std::less<>> members;
};

/// Go's reflect.DeepEqual over expression values (no numeric/string conversion).
bool deep_equal(const expr_value& a, const expr_value& b);

/// The value as Go's `%v` prints it (`<nil>`, `1.5`, `[1 a]`, `map[k:v]`).
std::string to_display(const expr_value& value);

/// Thrown by expression::evaluate with govaluate's error text.
class expr_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A compiled govaluate expression.
class expression {
public:
  /// Compiles `text`; throws compile_error with the offending offset.
  static expression compile(std::string_view text);

  /// The distinct variable names used, in order of first appearance (for `a.b`, `a`).
  const std::vector<std::string>& variables() const noexcept;

  /// Evaluates with `bound[i]` the value of variables()[i] (nullptr: not bound, an error when
  /// the expression reads it). Throws expr_error on a type error or an unbound variable.
  expr_value evaluate(std::span<const expr_value* const> bound) const;

  /// The source text.
  const std::string& text() const noexcept;

  struct impl;

  expression();
  ~expression();
  expression(const expression&);
  expression& operator=(const expression&);
  expression(expression&&) noexcept;
  expression& operator=(expression&&) noexcept;

private:
  std::shared_ptr<const impl> impl_;
};

} // namespace ganglion::dsl
