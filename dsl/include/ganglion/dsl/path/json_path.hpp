#pragma once

// gjson paths (tidwall/gjson v1.19, the version Argo Events uses) and sjson destinations
// (tidwall/sjson v1.2.5).
//
// json_path implements: dot keys, `\` escapes, array indexes, `*` / `?` wildcards, `#`,
// `#.rest`, queries `#(k op v)` / `#(...)#` with == != < <= > >= % !% and `~` booleans, nested
// queries, `|` versus `.`, multipaths `[a,b]` / `{a,"name":b}`, literals `!true` / `!"x"` /
// `!{...}`, and the modifiers @this @reverse @flatten @keys @values @join @tostr @fromstr
// (@ugly and @valid are the identity here).
//
// Left out, or different from gjson:
// - JSON Lines paths (`..0`) and the @pretty, @group and @dig modifiers: compile_error.
// - Results are re-serialised by simdjson, so objects and arrays come back minified and number
//   spellings may change (`1e2` → `100.0`); gjson returns the original bytes.
// - Documents with integers beyond 64 bits are rejected as invalid JSON (simdjson).
// - Literals are JSON only: `!nan`, `!inf` and upper-case `!TRUE` are compile errors.
// - `\*` and `\?` are always literal characters; a `#(...)` component applied to an object
//   matches nothing (gjson compares it with the keys as text).
// - A value after a missing one (`missing|!true`) is missing.
// - Every evaluation is held to a budget of steps and built JSON (json_eval.hpp); gjson has none.
//
// dest_path implements sjson's simple paths: keys, `\` escapes, numeric indexes (missing
// elements padded with null), `-1` to append, a leading `:` to force an object key. Paths with
// `|`, `#`, `@`, `*` or `?` (sjson's "complex" paths, which only replace existing values) are
// compile errors.

#include <memory>
#include <string>
#include <string_view>

namespace ganglion::dsl {

/// A compiled gjson-style path (`a.b.0.c`, escapes `\.`, `#`, wildcards …) for reading JSON.
/// Evaluation lives in internal/json_eval.hpp.
class json_path {
public:
  /// Compiles `text`; throws compile_error (also for an empty path).
  static json_path compile(std::string_view text);

  /// The source text.
  const std::string& text() const noexcept;

  /// True when the path can build JSON whose size grows with the path rather than the event:
  /// multipaths, modifiers, literals or a pipe of several segments. Every evaluation is held to
  /// a budget (json_eval.hpp); the engine gives a sensor with such a path a thread of its own.
  bool builds() const noexcept;

  json_path();
  ~json_path();
  json_path(const json_path&);
  json_path& operator=(const json_path&);
  json_path(json_path&&) noexcept;
  json_path& operator=(json_path&&) noexcept;

  struct impl;
  /// The compiled form (for the evaluator).
  const impl& compiled() const noexcept { return *impl_; }

private:
  std::unique_ptr<impl> impl_;
};

/// A compiled sjson-style destination path (`a.b`, `list.0`, `list.-1` appends, `\.` escapes).
class dest_path {
public:
  /// Compiles `text`; throws compile_error for sjson's complex paths. An empty text is
  /// allowed (the whole document).
  static dest_path compile(std::string_view text);

  /// The source text.
  const std::string& text() const noexcept;

  /// True for the empty path.
  bool empty() const noexcept;

  dest_path();
  ~dest_path();
  dest_path(const dest_path&);
  dest_path& operator=(const dest_path&);
  dest_path(dest_path&&) noexcept;
  dest_path& operator=(dest_path&&) noexcept;

  struct impl;
  /// The compiled form (for the writer).
  const impl& compiled() const noexcept { return *impl_; }

private:
  std::unique_ptr<impl> impl_;
};

/// Writes `raw_json` at `dest` inside the JSON text `document`, creating missing objects and
/// arrays as sjson does and keeping the rest of the text byte for byte; an empty document
/// counts as `{}` (`[]` when the first component is an index). An empty dest replaces the
/// whole document. Throws std::invalid_argument when the document or the value is not valid
/// JSON, or an index meets an object key that is not numeric.
void set_json(std::string& document, const dest_path& dest, std::string_view raw_json);

} // namespace ganglion::dsl
