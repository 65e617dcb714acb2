#pragma once

// Helpers shared by the model_*_test.cpp files.

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>

#include <gtest/gtest.h>

#include "ganglion/dsl/load.hpp"
#include "model_test_kinds.hpp"

namespace ganglion::dsl::testing {

/// Loads `yaml` as the file "test.yaml", with every kind the binary runs.
inline load_result load(const std::string& yaml) {
  return load_manifest_text(yaml, "test.yaml", with_kinds());
}

/// Loads `yaml` as the file "test.yaml" with `options` (their kinds, none by default).
inline load_result load(const std::string& yaml, const load_options& options) {
  return load_manifest_text(yaml, "test.yaml", options);
}

/// An EventSource `es` whose `spec:` holds `spec` (YAML lines indented by two).
inline std::string event_source_yaml(const std::string& spec) {
  return "apiVersion: argoproj.io/v1alpha1\nkind: EventSource\nmetadata:\n  name: es\nspec:\n"
         + spec;
}

/// A Sensor `s` with one dependency `d` (EventSource `es`, event `e`) whose `triggers:` holds
/// `triggers` (YAML list items indented by four).
inline std::string sensor_yaml(const std::string& triggers) {
  return "apiVersion: argoproj.io/v1alpha1\nkind: Sensor\nmetadata:\n  name: s\nspec:\n"
         "  dependencies:\n    - {name: d, eventSourceName: es, eventName: e}\n  triggers:\n"
         + triggers;
}

/// An EventBus (`default`, or the `metadata` given) whose `spec:` holds `spec`.
inline std::string event_bus_yaml(const std::string& spec,
                                  const std::string& metadata = "  name: default\n") {
  return "apiVersion: argoproj.io/v1alpha1\nkind: EventBus\nmetadata:\n" + metadata + "spec:\n"
         + spec;
}

/// Every diagnostic rendered, one per line, for failure messages.
inline std::string dump(const load_result& r) {
  std::string out;
  for (const auto& d : r.diagnostics)
    out += d.to_string() + "\n";
  return out;
}

/// Success when `r` has a diagnostic of `level` at `path`, `line`:`column`, whose message
/// contains `message`.
inline ::testing::AssertionResult has_diagnostic(const load_result& r, std::string_view path,
                                                 int line, int column, std::string_view message,
                                                 severity level = severity::error) {
  for (const auto& d : r.diagnostics)
    if (d.path == path && d.where.line == line && d.where.column == column
        && d.message.find(message) != std::string::npos && d.level == level)
      return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure()
         << "no " << (level == severity::error ? "error" : "warning") << " at " << path << " "
         << line << ":" << column << " containing \"" << message << "\"; got:\n"
         << dump(r);
}

/// The 1-based line and column where the `occurrence`-th `needle` starts in `text`.
inline std::pair<int, int> position_of(const std::string& text, std::string_view needle,
                                       int occurrence = 1) {
  std::size_t at = std::string::npos;
  std::size_t from = 0;
  for (int i = 0; i < occurrence; ++i) {
    at = text.find(needle, from);
    if (at == std::string::npos) {
      ADD_FAILURE() << "\"" << needle << "\" not found in the test manifest";
      return {0, 0};
    }
    from = at + 1;
  }
  auto line_start = text.rfind('\n', at);
  line_start = line_start == std::string::npos ? 0 : line_start + 1;
  int line = 1 + static_cast<int>(std::count(text.begin(), text.begin() + at, '\n'));
  return {line, static_cast<int>(at - line_start) + 1};
}

/// has_diagnostic at a position given by position_of.
inline ::testing::AssertionResult has_diagnostic(const load_result& r, std::string_view path,
                                                 std::pair<int, int> position,
                                                 std::string_view message,
                                                 severity level = severity::error) {
  return has_diagnostic(r, path, position.first, position.second, message, level);
}

/// Success when `r` has no diagnostic at all.
inline ::testing::AssertionResult clean(const load_result& r) {
  if (r.diagnostics.empty())
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "unexpected diagnostics:\n" << dump(r);
}

/// The body of the only document, of type T; fails the test when it is something else.
template <class T>
const T& only(const load_result& r) {
  static const T empty{};
  EXPECT_EQ(r.documents.size(), 1u) << dump(r);
  if (r.documents.size() != 1 || !std::holds_alternative<T>(r.documents[0].body)) {
    ADD_FAILURE() << "the document does not hold the expected kind\n" << dump(r);
    return empty;
  }
  return std::get<T>(r.documents[0].body);
}

/// The template of the only trigger of the only Sensor in `r`; fails the test otherwise.
inline const trigger_template& only_template(const load_result& r) {
  static const trigger_template empty;
  const auto& s = only<sensor>(r);
  if (s.spec.triggers.size() != 1) {
    ADD_FAILURE() << "expected one trigger\n" << dump(r);
    return empty;
  }
  return s.spec.triggers[0].template_;
}

} // namespace ganglion::dsl::testing
