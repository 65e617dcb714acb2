#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace ganglion::loadgen {

/// The command line of ganglion-loadgen. Durations are in seconds.
struct options {
  std::string url;
  std::size_t connections = 64;
  std::size_t threads = 1;
  double duration = 10;
  double warmup = 1;
  double rate = 0; ///< total requests per second; 0: closed loop
  std::string body_file;
  std::optional<std::string> body_text;
  std::vector<std::string> headers;
  std::string sink; ///< HOST:PORT, empty: no sink
  std::string sink_path = "/sink";
  double drain = 5;
  double timeout = 10;
  std::string json_file;
  bool quiet = false;
};

/// Parses the command line with CLI11. Returns the options, or the exit status when the
/// program should end now: 0 after --help, 2 after a usage error (printed to stderr).
std::variant<options, int> parse_command_line(int argc, char** argv);

} // namespace ganglion::loadgen
