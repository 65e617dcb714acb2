#pragma once

#include <functional>
#include <optional>
#include <string>

namespace ganglion::core {

/// Reads Kubernetes-style mounted secrets: `<dir>/<secret-name>/<key>`, or secrets from a
/// backend (cluster mode: Kubernetes Secrets read through the API).
class secret_store {
public:
  /// Reads key `key` of secret `name`: the value, or nullopt with `error` (when given) saying
  /// why. Called from any thread; may block briefly.
  using lookup = std::function<std::optional<std::string>(
    const std::string& name, const std::string& key, std::string* error)>;

  /// `dir` empty: every lookup fails.
  explicit secret_store(std::string dir);
  /// Secrets from `backend` instead of files; dir() is empty.
  explicit secret_store(lookup backend);

  /// The secret value with one trailing newline removed, or nullopt when the file is missing or
  /// unreadable; `error` (when given) explains which file was looked for.
  std::optional<std::string> read(const std::string& name, const std::string& key,
                                  std::string* error = nullptr) const;

  /// The secrets directory.
  const std::string& dir() const noexcept { return dir_; }
  /// True when the secrets come from a backend, not from dir().
  bool has_backend() const noexcept { return static_cast<bool>(backend_); }

private:
  std::string dir_;
  lookup backend_;
};

/// Compares two secrets in time that depends only on their lengths.
bool constant_time_equal(const std::string& a, const std::string& b) noexcept;

} // namespace ganglion::core
