#pragma once

// Private: which changes an event of a watchPathConfig takes, as Argo's file and sftp sources
// decide it.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ganglion/file/spec.hpp"

namespace re2 {
class RE2;
}

namespace ganglion::file {

/// `path` or `pathRegexp` of a watchPathConfig, matched against a change's name with the
/// directory cut off as written (Go's strings.TrimPrefix): equal to `path`, or `pathRegexp`
/// found anywhere in it (Go's MatchString; RE2 has Go's syntax).
class path_matcher {
public:
  /// Throws std::invalid_argument when pathRegexp does not compile.
  explicit path_matcher(const watch_path_config& config);
  ~path_matcher();
  path_matcher(path_matcher&&) noexcept;

  /// True when the change named `name` is one the event takes.
  bool matches(std::string_view name) const;

private:
  std::string directory_;
  std::string path_;
  std::unique_ptr<re2::RE2> regexp_;
};

/// What the check step of a file or sftp source finds wrong with its `eventType` and
/// `watchPathConfig` (Argo's validate.go), each message prefixed with `name`.
std::vector<std::string> watch_problems(const std::string& name, const std::string& event_type,
                                        const watch_path_config& config);

} // namespace ganglion::file
