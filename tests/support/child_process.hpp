#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace ganglion::test {

/// A child process started with posix_spawn; its stdout and stderr go to one temporary file.
class child_process {
public:
  /// Starts `argv[0]` (looked up in PATH when it has no `/`) with the current environment plus
  /// `extra_env` (which overrides). Throws std::runtime_error when it cannot start.
  child_process(std::vector<std::string> argv,
                std::vector<std::pair<std::string, std::string>> extra_env = {});
  /// Kills the process with SIGKILL and reaps it when it still runs; removes the output file.
  ~child_process();
  child_process(const child_process&) = delete;
  child_process& operator=(const child_process&) = delete;

  /// The process id.
  int pid() const;
  /// Sends `sig` unless the process was already reaped.
  void signal(int sig);
  /// Waits for the exit: the exit code, or 128 + signal number; nullopt when `timeout` passes.
  std::optional<int> wait(std::chrono::milliseconds timeout);
  /// True until the process has exited.
  bool running();
  /// Everything the process wrote to stdout and stderr so far.
  std::string output() const;

private:
  bool reap(bool block);

  int pid_ = -1;
  std::optional<int> exit_code_;
  std::string output_path_;
};

} // namespace ganglion::test
