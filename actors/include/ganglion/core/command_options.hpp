#pragma once

// Command-line options a kind declares for itself (`run --bus-property KEY=VALUE`), and the
// values the command line gave them. The binary adds every declared option to the commands it
// names and hands the values to the kinds' registration (`settings` in ganglion_add_kind's
// REGISTER), so a kind's option touches no file of app/ (docs/adding-a-kind.md).

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace ganglion::core {

/// One option of a kind.
struct command_option {
  std::string flag;                         ///< `--bus-property`
  std::string help;                         ///< one sentence for --help
  std::vector<std::string> commands{"run"}; ///< the commands that take it: run, validate, test
  bool repeatable = false;                  ///< may be given more than once; every value kept
  bool is_switch = false;                   ///< takes no value; "true" once given
  bool existing_file = false;               ///< the value must name a file that exists
  std::string https_url_only;               ///< non-empty: the value must start with https://;
                                            ///< this is the error text otherwise
};

/// Options declared by the kinds of a program.
using command_options = std::vector<command_option>;

/// The values the command line gave, by flag (`--bus-property`).
class option_values {
public:
  /// Records `values` for `flag` (replacing what it had).
  void set(std::string flag, std::vector<std::string> values);
  /// The last value of `flag`, or `fallback` when it was not given.
  std::string value(std::string_view flag, std::string fallback = {}) const;
  /// Every value of `flag` in order (empty when it was not given).
  std::vector<std::string> values(std::string_view flag) const;
  /// Whether `flag` was given (a switch: whether it is on).
  bool is_set(std::string_view flag) const;

private:
  std::map<std::string, std::vector<std::string>, std::less<>> values_;
};

} // namespace ganglion::core
