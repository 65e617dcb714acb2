#pragma once

// The parsed form of a Go text/template, its value helpers and its function table.

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>
#include <re2/re2.h>

namespace ganglion::dsl::tmpl {

/// A template value: JSON, with `discarded` as Go's invalid value (printed `<no value>`),
/// and a binary with subtype `time_subtype` holding a time.Time as Unix nanoseconds.
using value = nlohmann::json;

/// The binary subtype marking a time value.
constexpr std::uint64_t time_subtype = 0x71;

// ---- lexer ----

/// Token kinds of the template lexer.
enum class tok {
  text, left, right, identifier, keyword, field, variable, dot, string, number, boolean, nil,
  pipe, left_paren, right_paren, declare, assign, comma, eof
};

/// One token: its kind, its text (unquoted for strings) and its offset in the source.
struct token {
  tok kind;
  std::string text;
  std::size_t offset;
};

/// Splits the source into text and action tokens, applying `{{-` / `-}}` trimming and
/// dropping comments; throws compile_error.
std::vector<token> lex(std::string_view source);

// ---- functions ----

struct function;

/// What a function sees besides its arguments: the regex compiled at parse time from a
/// literal first argument, if any.
struct call_context {
  const RE2* regex = nullptr;
};

/// A template function: takes evaluated arguments, returns a value, throws
/// std::runtime_error on failure.
using function_body = value (*)(const call_context&, std::vector<value>&);

/// A named function with its accepted argument counts (max < 0: variadic).
struct function {
  std::string_view name;
  function_body body;
  int min_args;
  int max_args;
};

/// The builtin or sprig function named `name`, or nullptr.
const function* find_function(std::string_view name);

/// Registration lists, one per source file.
void add_builtin_functions(std::vector<function>& out);
void add_string_functions(std::vector<function>& out);
void add_data_functions(std::vector<function>& out);
void add_encoding_functions(std::vector<function>& out);
void add_time_regex_functions(std::vector<function>& out);

/// True for the regex functions whose first argument is a pattern worth compiling once.
bool takes_pattern(std::string_view name);

// ---- tree ----

struct pipeline;

/// An argument or the head of a command.
struct operand {
  enum class kind { literal, dot, variable, function, pipeline };
  kind what = kind::literal;
  value literal;
  /// Variable name (with `$`) or function name.
  std::string name;
  const function* fn = nullptr;
  std::unique_ptr<pipeline> pipe;
  /// Field names applied in order after the base (`.a.b`, `$x.a`, `(…).a`).
  std::vector<std::string> fields;
  std::size_t offset = 0;
};

/// A command: a function with arguments or a single operand.
struct command {
  std::vector<operand> args;
  /// The regex of a literal pattern argument, compiled at parse time.
  std::shared_ptr<RE2> regex;
  std::size_t offset = 0;
};

/// `$a, $b := cmd | cmd`.
struct pipeline {
  std::vector<std::string> variables;
  bool assign = false;
  std::vector<command> commands;
  std::size_t offset = 0;
};

/// A node of the tree.
struct node {
  enum class kind { text, action, if_, range, with };
  kind what = kind::text;
  std::string text;
  pipeline pipe;
  std::vector<node> list;
  std::vector<node> else_list;
  std::size_t offset = 0;
};

/// A parsed template.
struct tree {
  std::string source;
  std::vector<node> root;
};

/// Parses the source into a tree; throws compile_error.
std::shared_ptr<const tree> parse(std::string_view source);

/// Executes the tree with `dot`; throws std::runtime_error.
std::string execute(const tree& t, const value& dot);

// ---- values ----

/// A no-value (Go's invalid reflect.Value).
value no_value();
/// True for no-value.
inline bool is_missing(const value& v) { return v.is_discarded(); }
/// True for a time value.
bool is_time(const value& v);
/// A time value from Unix nanoseconds.
value make_time(std::int64_t unix_nanos);
/// The Unix nanoseconds of a time value.
std::int64_t time_nanos(const value& v);
/// Go's type name of a value as %T prints it (`float64`, `map[string]interface {}` …).
std::string type_name(const value& v);
/// fmt's %v (Sprint of one operand).
std::string print_value(const value& v);
/// text/template's truth (empty strings, collections, zero numbers, nil are false).
bool truth(const value& v);
/// strconv.FormatFloat(f, 'g', -1, 64) as %v prints float64.
std::string format_float_v(double f);
/// strconv.Quote.
std::string go_quote(std::string_view s);
/// encoding/json Marshal; `escape_html` escapes < > & as Go's default encoder does.
std::string to_go_json(const value& v, bool escape_html);
/// JSON value as Go's json.Unmarshal into any gives it (numbers become float64).
value numbers_to_float(value v);
/// sprig's strval: strings as is, others via %v.
std::string strval(const value& v);

/// Argument accessors raising text/template's errors for the wrong type.
std::string arg_string(const value& v, std::string_view fn);
std::int64_t arg_int(const value& v, std::string_view fn);
/// cast.ToInt64 / cast.ToFloat64 as sprig uses them (0 for what does not convert).
std::int64_t to_int64(const value& v);
double to_float64(const value& v);

} // namespace ganglion::dsl::tmpl
