#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace ganglion::core {

/// Lifecycle phase of a component.
enum class phase {
  pending,    ///< created, not started yet
  running,    ///< started (a source: listening)
  restarting, ///< failed; waiting for its backoff before the next start
  error,      ///< failed too often; stays down until reload or restart
  stopped,    ///< stopped on purpose
  standby,    ///< runs on another replica (remote bus); takes over when that one goes
};

/// The name of a phase as shown in /v1/status (`Running`, `Error` …); the one place these
/// names are spelled.
const char* to_string(phase p) noexcept;

/// How a trigger's latest execution (attempt) ended, as its executor reported it.
struct execution_status {
  std::chrono::system_clock::time_point time;
  bool ok = false;
  std::string error;  ///< why it failed
  std::string detail; ///< the executor's detail (e.g. `HTTP 200`)
  std::string result; ///< JSON object the executor reported (trigger_outcome::result); may be empty
};

/// A trigger's latest executions, written by its actor without the board's lock and read by
/// /v1/status.
class execution_record {
public:
  /// Records one execution; its `result`, when not empty, becomes the last result.
  void record(execution_status status);
  /// Forgets what was recorded.
  void clear();
  /// The latest execution; nullopt before the first.
  std::optional<execution_status> last() const;
  /// The `result` of the latest execution that reported one; empty when none did.
  std::string last_result() const;

private:
  mutable std::mutex mutex_;
  std::optional<execution_status> last_;
  std::string last_result_;
};

/// What /v1/status shows for one component.
struct component_status {
  std::string kind; ///< source | sensor | trigger | bus
  std::string name; ///< e.g. `webhook/example`, `my-sensor/my-trigger`
  core::phase phase = phase::pending;
  std::string last_error;
  /// What the component waits for in its phase (a Pending source: `connecting to host:port`);
  /// set with the phase, so the next phase change clears it.
  std::string message;
  std::uint32_t restarts = 0;
  std::string since; ///< RFC 3339 time of the last phase change
  /// A trigger's executions (`lastExecution`, `lastResult`); null until its actor asks for it.
  std::shared_ptr<execution_record> executions;
};

/// The `config` section of /v1/status: the outcome of the latest manifest reload.
struct config_status {
  /// Running, or Error when the latest reload was refused.
  std::string phase = to_string(core::phase::running);
  std::string last_reload;         ///< RFC 3339 time of the latest reload; empty before one
  std::uint64_t reloads = 0;       ///< reloads attempted
  std::vector<std::string> errors; ///< why the latest reload was refused (`file:line:col: …`)
};

/// Thread-safe table of component phases, written by supervisors and read by admin.
class status_board {
public:
  /// Sets the phase of a component (creating it); `error` replaces last_error when not empty,
  /// `message` replaces the message.
  void set(const std::string& kind, const std::string& name, phase p, const std::string& error = {},
           const std::string& message = {});
  /// Counts one restart.
  void count_restart(const std::string& kind, const std::string& name);
  /// Forgets the last error and the restarts of a component whose new version starts (added or
  /// replaced by a reload), so that they describe that version only.
  void clear_failures(const std::string& kind, const std::string& name);
  /// Where the actor of component (kind, name) records its executions (created on first use;
  /// kept, cleared, by clear_failures).
  std::shared_ptr<execution_record> executions(const std::string& kind, const std::string& name);
  /// Removes a component.
  void remove(const std::string& kind, const std::string& name);
  /// All components, ordered by kind then name.
  std::vector<component_status> snapshot() const;
  /// True when every source is running and no sensor is still pending.
  bool all_sources_running() const;
  /// What keeps the engine from being ready, one line per component, with its message and last
  /// error: `source hooks/a: Error: github event sources are not run by ganglion yet …`,
  /// `source signals/example: Pending: connecting to 127.0.0.1:9000`.
  std::vector<std::string> blockers() const;
  /// The board as the /v1/status JSON document.
  std::string to_json() const;
  /// Sets the `config` section.
  void set_config(config_status config);

private:
  /// +1 when `c` keeps the engine from being ready (a source not running, a sensor pending).
  static int blocking(const component_status& c);

  mutable std::mutex mutex_;
  std::map<std::pair<std::string, std::string>, component_status> components_;
  config_status config_;
  /// Components for which blocking() holds, kept up to date so readiness is O(1).
  int blocking_ = 0;
};

} // namespace ganglion::core
