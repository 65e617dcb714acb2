#pragma once

// Not installed: exposes simdjson and nlohmann::json.

#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>
#include <simdjson.h>

namespace ganglion::dsl {

namespace tmpl {
struct tree;
} // namespace tmpl

/// A Go text/template with the sprig functions Argo registers, parsed once at load time.
/// Values are JSON: numbers read from JSON input are float64 as in Go's `map[string]any`,
/// and output follows Go's fmt (`{{ 3.0 }}` of an input prints `3`, a missing key prints
/// `<no value>`). Copies share the parsed tree; execution is thread-safe.
class go_template {
public:
  /// Parses `text`; throws compile_error with the 0-based offset of the problem for a
  /// syntax error or an unknown function.
  static go_template parse(std::string_view text);

  /// Executes with dot = `{"Input": input}` (Argo's parameter templates). Throws
  /// std::runtime_error with Go's message when execution fails.
  std::string execute_input(simdjson::dom::element input) const;

  /// Executes with dot = `{"Input": input}` where input is a string (Argo's data filter).
  std::string execute_input_string(std::string_view input) const;

  /// Executes with `dot` as the data; numbers keep the type they have in `dot`.
  std::string execute(const nlohmann::json& dot) const;

  /// The template source.
  const std::string& text() const noexcept;

private:
  explicit go_template(std::shared_ptr<const tmpl::tree> tree);
  std::shared_ptr<const tmpl::tree> tree_;
};

} // namespace ganglion::dsl
