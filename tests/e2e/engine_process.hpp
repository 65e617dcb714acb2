#pragma once

// Runs the ganglion binary on manifests written for one test.

#include <chrono>
#include <csignal>
#include <memory>
#include <string>

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "test_support.hpp"

namespace ganglion::e2e {

/// A `ganglion run` process on a temp directory of manifests, with its admin endpoints.
class engine_process {
public:
  /// Writes `manifests` (YAML text) and starts the engine (with `extra_args` appended to the
  /// command line); waits until /ready answers 200.
  explicit engine_process(const std::string& manifests, const std::string& secrets_dir = {},
                          bool wait_ready = true, std::vector<std::string> extra_args = {})
    : dir_(test::temp_dir()), admin_port_(test::free_port()) {
    test::write_file(dir_ + "/manifests.yaml", manifests);
    std::vector<std::string> argv{GANGLION_BINARY, "run", "-f", dir_ + "/manifests.yaml",
                                  "--admin", fmt::format("127.0.0.1:{}", admin_port_),
                                  "--webhook-host", "127.0.0.1", "--data-dir", dir_ + "/data"};
    if (!secrets_dir.empty()) {
      argv.push_back("--secrets-dir");
      argv.push_back(secrets_dir);
    }
    argv.insert(argv.end(), extra_args.begin(), extra_args.end());
    process_ = std::make_unique<test::child_process>(argv);
    if (wait_ready && !test::wait_http_ok(admin_url("/ready"), std::chrono::seconds(20)))
      ADD_FAILURE() << "ganglion did not become ready; output:\n" << process_->output();
  }

  ~engine_process() {
    if (process_->running()) {
      process_->signal(SIGTERM);
      process_->wait(std::chrono::seconds(15));
    }
  }

  /// http://127.0.0.1:<admin port><path>
  std::string admin_url(const std::string& path) const {
    return fmt::format("http://127.0.0.1:{}{}", admin_port_, path);
  }

  /// The manifest file the engine runs (a test may rewrite it and reload).
  std::string manifest_file() const { return dir_ + "/manifests.yaml"; }

  /// The process.
  test::child_process& process() { return *process_; }

  /// Everything the engine logged so far.
  std::string output() const { return process_->output(); }

private:
  std::string dir_;
  std::uint16_t admin_port_;
  std::unique_ptr<test::child_process> process_;
};

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

/// A Sensor named `name` with one dependency `d` on `hooks/example` and `triggers` (YAML list
/// items indented for `triggers:`), as a document to append to an EventSource.
inline std::string hook_sensor(const std::string& triggers, const std::string& name = "s") {
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
  triggers:
{})",
                     name, triggers);
}

/// A k8s trigger named `name` (a kind ganglion does not run yet), as an item of `triggers:`.
inline std::string k8s_trigger(const std::string& name) {
  return fmt::format(R"(    - template:
        name: {}
        k8s:
          operation: create
          source:
            resource: {{apiVersion: v1, kind: ConfigMap, metadata: {{generateName: x-}}}}
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
