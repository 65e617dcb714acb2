#pragma once

// A sandboxed Lua 5.4 state shared by the script filter and the Lua transform.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include <simdjson.h>

#include "ganglion/dsl/filter/event_view.hpp"
#include "ganglion/dsl/script/script_budget.hpp"

struct lua_State;

namespace ganglion::dsl::lua {

/// The resources one run of a script may use.
struct limits {
  /// Live bytes held by the Lua state.
  std::size_t memory_bytes = std::size_t{16} << 20;
  /// Bytes allocated over one run, so string builders cannot spin on the allocator forever.
  std::size_t allocated_bytes_per_run = std::size_t{256} << 20;
  /// Lua VM instructions per run.
  std::uint64_t instructions = 1'000'000;
  /// Wall-clock time per run, checked with the instruction count.
  std::chrono::milliseconds time = default_script_budget;
};

/// What the allocator and the instruction hook count; the state's allocator user data.
struct budget {
  limits max;
  std::size_t live = 0;
  std::size_t allocated = 0;
  std::uint64_t instructions = 0;
  std::chrono::steady_clock::time_point deadline;
  bool enforced = true;
  bool time_exceeded = false;
  bool memory_exceeded = false;
  bool instructions_exceeded = false;
};

/// One Lua state with the safe libraries (base without file access, `load`, `print` and `warn`;
/// string without `dump`; table; math; utf8) and one compiled chunk. Each run gets a fresh
/// global table, so nothing a script sets survives into the next run. Not thread-safe.
class sandbox {
public:
  /// Creates the state and compiles `source` as text; throws compile_error on a syntax error.
  explicit sandbox(const std::string& source, limits max = {});
  ~sandbox();
  sandbox(const sandbox&) = delete;
  sandbox& operator=(const sandbox&) = delete;

  /// Runs the chunk with the global `event` bound to `data`, then calls `read` with the
  /// script's last return value (nil when none) on the top of the stack. `read` runs with the
  /// memory limit lifted and must not call into Lua code. Throws budget_exceeded when the
  /// script exceeds a limit, std::runtime_error when it fails.
  void run(simdjson::dom::object data, const std::function<void(lua_State*)>& read);

private:
  budget budget_;
  lua_State* state_ = nullptr;
};

/// The event's data as a JSON object, parsed with `parser` when the sensor has not parsed it;
/// throws std::runtime_error when it is not JSON or not an object.
simdjson::dom::object data_object(const event_view& event, simdjson::dom::parser& parser);

/// Pushes `data` as a table with Argo's lossy conversion (nulls dropped; arrays keep objects,
/// numbers, strings and bools, renumbered from 1). Raises Lua errors: call it protected.
void push_object(lua_State* state, simdjson::dom::object data);

/// Renders the Lua value at `index` as JSON the way Argo's toGoValue and json.Marshal do:
/// a table with a positive length (or a metatable with `__is_array = true`) is an array,
/// any other table an object. Throws std::runtime_error for values with no JSON form.
std::string to_json(lua_State* state, int index);

} // namespace ganglion::dsl::lua
