#pragma once

// The command-line options the kinds declare (ganglion_add_kind's OPTIONS), added to the
// commands that take them and read back once parsed.

#include <map>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "ganglion/core/command_options.hpp"

namespace ganglion::app {

/// The kinds' options of one command: where CLI11 stores their values while it parses.
class kind_flags {
public:
  /// Adds each option of `declared` that `command_name` takes to `command`.
  void add_to(CLI::App* command, const std::string& command_name,
              const core::command_options& declared);

  /// What the command line gave those options (only the ones given).
  core::option_values values() const;

private:
  std::map<std::string, std::string> single_;
  std::map<std::string, std::vector<std::string>> repeated_;
  std::map<std::string, bool> switches_;
};

} // namespace ganglion::app
