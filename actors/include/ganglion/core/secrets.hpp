#pragma once

#include <optional>
#include <string>

namespace ganglion::core {

/// Reads Kubernetes-style mounted secrets: `<dir>/<secret-name>/<key>`.
class secret_store {
public:
  /// `dir` empty: every lookup fails.
  explicit secret_store(std::string dir);

  /// The secret value with one trailing newline removed, or nullopt when the file is missing or
  /// unreadable; `error` (when given) explains which file was looked for.
  std::optional<std::string> read(const std::string& name, const std::string& key,
                                  std::string* error = nullptr) const;

  /// The secrets directory.
  const std::string& dir() const noexcept { return dir_; }

private:
  std::string dir_;
};

/// Compares two secrets in time that depends only on their lengths.
bool constant_time_equal(const std::string& a, const std::string& b) noexcept;

} // namespace ganglion::core
