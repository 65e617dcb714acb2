#include "validate/validate_compile.hpp"

#include <fmt/format.h>

#include "ganglion/dsl/compile_error.hpp"
#include "ganglion/dsl/expr/expr.hpp"
#include "ganglion/dsl/filter/filter_eval.hpp"
#include "ganglion/dsl/path/json_path.hpp"
#include "ganglion/dsl/script/jq_transform.hpp"
#include "ganglion/dsl/script/lua_script.hpp"
#include "ganglion/dsl/tmpl/go_template.hpp"

namespace ganglion::dsl::detail {

namespace {

/// `what` followed by the quoted text when it is short and on one line.
std::string subject(std::string_view what, const std::string& text) {
  if (text.size() > 60 || text.find('\n') != std::string::npos)
    return std::string{what};
  return fmt::format("{} \"{}\"", what, text);
}

/// Reports `message` at `path` with `level`.
void report(const load_context& cx, severity level, const std::string& path, std::string message) {
  if (level == severity::error)
    cx.error(path, std::move(message));
  else
    cx.warning(path, std::move(message));
}

/// Runs `compile`; reports `<what> "<text>" does not compile at offset N: <why>` on failure.
template <class Compile>
bool compiles(const std::string& text, std::string_view what, const std::string& path,
              const load_context& cx, severity level, Compile&& compile) {
  try {
    compile();
    return true;
  } catch (const compile_error& e) {
    report(cx, level, path,
           fmt::format("{} does not compile at offset {}: {}", subject(what, text), e.offset(),
                       e.what()));
  } catch (const std::exception& e) {
    report(cx, level, path, fmt::format("{} does not compile: {}", subject(what, text), e.what()));
  }
  return false;
}

/// Reports `error` (a compiler's message) at `path` unless it is empty.
bool no_error(const std::string& error, std::string_view what, const std::string& path,
              const load_context& cx, severity level) {
  if (error.empty())
    return true;
  report(cx, level, path, fmt::format("{}: {}", what, error));
  return false;
}

} // namespace

bool check_json_path(const std::string& text, const std::string& path, const load_context& cx,
                     severity level) {
  return compiles(text, "gjson path", path, cx, level, [&] { json_path::compile(text); });
}

bool check_dest_path(const std::string& text, const std::string& path, const load_context& cx,
                     severity level) {
  return compiles(text, "sjson dest", path, cx, level, [&] { dest_path::compile(text); });
}

bool check_go_template(const std::string& text, const std::string& path, const load_context& cx,
                       severity level) {
  return compiles(text, "Go template", path, cx, level, [&] { go_template::parse(text); });
}

bool check_expression(const std::string& text, const std::string& path, const load_context& cx,
                      severity level) {
  return compiles(text, "expression", path, cx, level, [&] { expression::compile(text); });
}

bool check_regex(const std::string& pattern, const std::string& path, const load_context& cx,
                 severity level) {
  return no_error(data_filter_regex_error(pattern),
                  fmt::format("invalid regular expression \"{}\"", pattern), path, cx, level);
}

bool check_lua(const std::string& source, const std::string& path, const load_context& cx,
               severity level) {
  return no_error(lua_syntax_error(source), "Lua script does not compile", path, cx, level);
}

bool check_jq(const std::string& program, const std::string& path, const load_context& cx,
              severity level) {
  return no_error(jq_compile_error(program), "jq program does not compile", path, cx, level);
}

} // namespace ganglion::dsl::detail
