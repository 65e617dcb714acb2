#pragma once

// Runs the ganglion binary on manifests written for one test: started once, restarted on the
// same files and ports, or reloaded after its manifest file changed.

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "eventually.hpp"
#include "test_support.hpp"

namespace ganglion::e2e {

/// How an engine_process starts `ganglion run`.
struct engine_options {
  std::string secrets_dir;             ///< --secrets-dir, when set
  bool wait_ready = true;              ///< start() waits until /ready answers 200
  bool watch = true;                   ///< false: --no-watch
  bool start_now = true;               ///< false: the test calls start()
  std::string data_dir;                ///< --data-dir; empty: <temp dir>/data
  std::vector<std::string> extra_args; ///< appended to the command line
  bool manifest_file = true;           ///< false: no `-f` (cluster mode alone)
  std::chrono::seconds ready_timeout{20};
};

/// The path of a manifest file the test wrote itself (kept across restarts).
struct manifest_path {
  std::string path;
};

/// A `ganglion run` process on one manifest file, with its admin endpoints. It can be killed,
/// stopped and started again on the same files and ports (restart), and its manifest file can
/// be rewritten for a hot reload.
class engine_process {
public:
  /// Writes `manifests` (YAML text) to a temp directory and starts the engine (with
  /// `extra_args` appended to the command line); waits until /ready answers 200.
  explicit engine_process(const std::string& manifests, const std::string& secrets_dir = {},
                          bool wait_ready = true, std::vector<std::string> extra_args = {})
    : engine_process(manifests, options_of(secrets_dir, wait_ready, std::move(extra_args))) {}

  /// Writes `manifests` (YAML text) to a temp directory and runs them as `options` say.
  engine_process(const std::string& manifests, engine_options options)
    : engine_process(manifest_path{}, std::move(options), &manifests) {}

  /// Runs the manifest file `file` as `options` say.
  engine_process(manifest_path file, engine_options options)
    : engine_process(std::move(file), std::move(options), nullptr) {}

  /// Stops the engine with SIGTERM when it still runs.
  ~engine_process() {
    if (process_ && process_->running()) {
      process_->signal(SIGTERM);
      process_->wait(std::chrono::seconds(15));
    }
  }

  /// Starts the engine (again: after kill() or stop(), on the same files and ports); waits
  /// for /ready unless the options say not to.
  void start() {
    if (process_)
      earlier_ += process_->output();
    process_ = std::make_unique<test::child_process>(command());
    if (options_.wait_ready && !test::wait_http_ok(admin_url("/ready"), options_.ready_timeout))
      ADD_FAILURE() << "ganglion did not become ready; output:\n" << output();
  }

  /// Kills the engine with SIGKILL, as a crash would.
  void kill() {
    process_->signal(SIGKILL);
    process_->wait(std::chrono::seconds(10));
  }

  /// Stops the engine with SIGTERM; it must exit with 0.
  void stop() {
    process_->signal(SIGTERM);
    EXPECT_EQ(process_->wait(std::chrono::seconds(20)), 0) << output();
  }

  /// http://127.0.0.1:<admin port><path>
  std::string admin_url(const std::string& path) const {
    return fmt::format("http://127.0.0.1:{}{}", admin_port_, path);
  }

  /// POSTs to the admin endpoint `path` the documented way: with `X-Ganglion-Admin: 1`
  /// (docs/security.md, "The admin API"), and `headers`.
  test::http_response admin_post(const std::string& path,
                                 std::vector<std::string> headers = {}) const {
    headers.push_back("X-Ganglion-Admin: 1");
    return test::http_request("POST", admin_url(path), {}, headers);
  }

  /// The manifest file the engine runs (a test may rewrite it and reload).
  std::string manifest_file() const { return file_; }

  /// Replaces the manifest file the way editors do: a temporary file renamed over it.
  void write(const std::string& text) {
    auto path = std::filesystem::path(file_);
    auto tmp = (path.parent_path() / ("." + path.filename().string() + ".tmp")).string();
    test::write_file(tmp, text);
    ASSERT_EQ(std::rename(tmp.c_str(), file_.c_str()), 0);
  }

  /// The body of GET /v1/status.
  std::string status() const { return test::http_request("GET", admin_url("/v1/status")).body; }

  /// The number of reloads /v1/status reports; -1 when it does not answer.
  int reloads() const {
    auto s = status();
    auto at = s.find("\"reloads\": ");
    return at == std::string::npos ? -1 : std::atoi(s.c_str() + at + 11);
  }

  /// Waits until /v1/status reports `count` reloads; false on timeout.
  bool wait_reloads(int count) const {
    return test::eventually([&] { return reloads() >= count; });
  }

  /// The body of GET /metrics.
  std::string metrics() const { return test::http_request("GET", admin_url("/metrics")).body; }

  /// Waits until /metrics has the line `line` (e.g. `name{labels} 2`); false on timeout.
  bool wait_metric(const std::string& line) const {
    return test::eventually([&] { return has_line(metrics(), line); });
  }

  /// The value of series `name` (with its labels, as rendered) in the /metrics text `text`;
  /// -1 when it is not there.
  static long long metric_value(const std::string& text, const std::string& name) {
    for (auto at = text.find(name + " "); at != std::string::npos;
         at = text.find(name + " ", at + 1))
      if (at == 0 || text[at - 1] == '\n')
        return std::atoll(text.c_str() + at + name.size() + 1);
    return -1;
  }

  /// Events the bus accepted so far (`ganglion_bus_events_total{result="accepted"}`).
  long long accepted() const { return metric_value(metrics(), accepted_series); }

  /// Waits until the bus accepted at least `events` events in all and the engine is idle:
  /// `ganglion_work_in_flight` is 0, so every one was judged by every sensor and every firing
  /// it caused has finished (docs/architecture.md, "Idle"). What a test waits for before it
  /// checks that something did not happen. False on timeout.
  bool wait_idle(long long events = 0) const {
    return test::eventually([&] {
      // One scrape: the bus counts an event in flight before it counts it accepted.
      auto text = metrics();
      return metric_value(text, accepted_series) >= events
             && metric_value(text, "ganglion_work_in_flight") == 0;
    });
  }

  /// The process.
  test::child_process& process() { return *process_; }

  /// Everything the engine logged so far, over all its runs.
  std::string output() const { return earlier_ + (process_ ? process_->output() : ""); }

private:
  engine_process(manifest_path file, engine_options options, const std::string* text)
    : dir_(test::temp_dir()),
      file_(file.path.empty() ? dir_ + "/manifests.yaml" : std::move(file.path)),
      options_(std::move(options)),
      admin_port_(test::free_port()) {
    if (text)
      test::write_file(file_, *text);
    if (options_.start_now)
      start();
  }

  static engine_options options_of(const std::string& secrets_dir, bool wait_ready,
                                   std::vector<std::string> extra_args) {
    engine_options options;
    options.secrets_dir = secrets_dir;
    options.wait_ready = wait_ready;
    options.extra_args = std::move(extra_args);
    return options;
  }

  std::vector<std::string> command() const {
    std::vector<std::string> argv{
      GANGLION_BINARY, "run", "--admin", fmt::format("127.0.0.1:{}", admin_port_),
      "--webhook-host", "127.0.0.1", "--data-dir",
      options_.data_dir.empty() ? dir_ + "/data" : options_.data_dir};
    if (options_.manifest_file) {
      argv.push_back("-f");
      argv.push_back(file_);
    }
    if (!options_.secrets_dir.empty()) {
      argv.push_back("--secrets-dir");
      argv.push_back(options_.secrets_dir);
    }
    if (!options_.watch)
      argv.push_back("--no-watch");
    argv.insert(argv.end(), options_.extra_args.begin(), options_.extra_args.end());
    return argv;
  }

  static bool has_line(const std::string& text, const std::string& line) {
    for (auto at = text.find(line); at != std::string::npos; at = text.find(line, at + 1))
      if ((at == 0 || text[at - 1] == '\n')
          && (at + line.size() == text.size() || text[at + line.size()] == '\n'))
        return true;
    return false;
  }

  static constexpr const char* accepted_series = R"(ganglion_bus_events_total{result="accepted"})";

  std::string dir_;
  std::string file_;
  engine_options options_;
  std::uint16_t admin_port_;
  std::unique_ptr<test::child_process> process_;
  std::string earlier_;
};

/// The /metrics line counting the events dependency `sensor`/`dependency` judged `result`
/// (pass, fail or error): what a test waits for before it checks that an event did not fire.
inline std::string dependency_events(const std::string& sensor, const std::string& dependency,
                                     const std::string& result, int n) {
  return fmt::format(
    R"(ganglion_dependency_events_total{{sensor="{}",dependency="{}",result="{}"}} {})", sensor,
    dependency, result, n);
}

/// The /metrics line counting the successful executions of trigger `sensor`/`trigger`.
inline std::string triggers_fired(const std::string& sensor, const std::string& trigger, int n) {
  return fmt::format(R"(ganglion_triggers_fired_total{{sensor="{}",trigger="{}"}} {})", sensor,
                     trigger, n);
}

/// A webhook EventSource manifest with one event per (name, endpoint) on `port`.
inline std::string webhook_source(const std::string& name, std::uint16_t port,
                                  const std::vector<std::string>& events,
                                  const std::string& extra = {}) {
  std::string out = fmt::format(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: {}
spec:
  webhook:
)", name);
  for (const auto& e : events)
    out += fmt::format("    {}:\n      port: \"{}\"\n      endpoint: /{}\n      method: POST\n{}", e,
                       port, e, extra);
  return out;
}

/// Two Sensors on `hooks`, as documents to append to an EventSource: `join` fires `a && b`
/// (POST {"a","b"} to `<sink>/join`), `each` fires every `c` (POST {"c"} to `<sink>/each`), both
/// `atLeastOnce`, the values taken from each event's `body.seq`.
inline std::string join_and_each_sensors(const std::string& sink) {
  return fmt::format(R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: join
spec:
  dependencies:
    - {{name: a, eventSourceName: hooks, eventName: a}}
    - {{name: b, eventSourceName: hooks, eventName: b}}
  triggers:
    - template:
        name: fire
        conditions: "a && b"
        http:
          url: {sink}/join
          method: POST
          payload:
            - src: {{dependencyName: a, dataKey: body.seq}}
              dest: a
            - src: {{dependencyName: b, dataKey: body.seq}}
              dest: b
      atLeastOnce: true
---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: each
spec:
  dependencies:
    - {{name: c, eventSourceName: hooks, eventName: c}}
  triggers:
    - template:
        name: fire
        http:
          url: {sink}/each
          method: POST
          payload:
            - src: {{dependencyName: c, dataKey: body.seq}}
              dest: c
      atLeastOnce: true
)",
                     fmt::arg("sink", sink));
}

/// A Sensor named `name` with one dependency `d` on `hooks/example` (with `dependency_fields`,
/// YAML lines indented for the dependency, e.g. a `transform:`) and `triggers` (YAML list
/// items indented for `triggers:`), as a document to append to an EventSource.
inline std::string hook_sensor(const std::string& triggers, const std::string& name = "s",
                               const std::string& dependency_fields = {}) {
  return fmt::format(R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: {}
spec:
  dependencies:
    - name: d
      eventSourceName: hooks
      eventName: example
{}  triggers:
{})",
                     name, dependency_fields, triggers);
}

/// A pulsar trigger named `name` (a kind ganglion does not run yet), as an item of `triggers:`.
inline std::string unrun_trigger(const std::string& name) {
  return fmt::format(R"(    - template:
        name: {}
        pulsar:
          url: pulsar://pulsar.example.com:6650
          topic: orders
          payload: []
)",
                     name);
}

/// POSTs a JSON body to the webhook at 127.0.0.1:<port>/<endpoint>.
inline test::http_response post(std::uint16_t port, const std::string& endpoint,
                                const std::string& body, std::vector<std::string> headers = {}) {
  headers.push_back("Content-Type: application/json");
  return test::http_request("POST", fmt::format("http://127.0.0.1:{}/{}", port, endpoint), body,
                            headers);
}

} // namespace ganglion::e2e
