#pragma once

// Not installed: exposes simdjson through event_view.

#include <chrono>
#include <memory>
#include <string>

#include "ganglion/dsl/filter/event_view.hpp"
#include "ganglion/dsl/filter/filter_eval.hpp"
#include "ganglion/dsl/script/script_budget.hpp"

namespace ganglion::dsl {

namespace lua {
class sandbox;
}

/// Compiles `source` as a Lua 5.4 text chunk, as compiled_script_filter and lua_transform load
/// it, without running it; Lua's syntax error (`script:<line>: …`), or empty when it compiles.
std::string lua_syntax_error(const std::string& source);

/// A dependency's `filters.script`: a Lua 5.4 script compiled once into its own sandboxed state
/// (safe libraries only; per event 1e6 instructions, 16 MiB and `budget` of time). Not
/// thread-safe: one sensor actor owns each instance.
class compiled_script_filter {
public:
  /// Compiles; throws compile_error for a syntax error.
  explicit compiled_script_filter(const std::string& lua_source,
                                  std::chrono::milliseconds budget = default_script_budget);
  ~compiled_script_filter();
  compiled_script_filter(compiled_script_filter&&) noexcept;
  compiled_script_filter& operator=(compiled_script_filter&&) noexcept;

  /// Argo's filterScript: nil data passes; otherwise the data must be a JSON object, bound to
  /// the global `event`, and the event passes only when the script returns `true`. Script errors
  /// and exceeded limits are returned as the outcome's error (a limit also sets `cut_off`).
  filter_outcome evaluate(const event_view& event) const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// A dependency's `transform.script`: a Lua 5.4 script that returns the new data as a table,
/// with the sandbox and limits of compiled_script_filter. Not thread-safe.
class lua_transform {
public:
  /// Compiles; throws compile_error for a syntax error.
  explicit lua_transform(const std::string& source,
                         std::chrono::milliseconds budget = default_script_budget);
  ~lua_transform();
  lua_transform(lua_transform&&) noexcept;
  lua_transform& operator=(lua_transform&&) noexcept;

  /// Runs the script with the data object bound to `event` and returns the returned table as
  /// JSON text; empty when the event has no data (Argo leaves it unchanged). Throws
  /// budget_exceeded when cut off, std::runtime_error when the data is not an object, the
  /// script fails or returns no table.
  std::string apply(const event_view& event) const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::dsl
