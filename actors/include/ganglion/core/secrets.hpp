#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>

namespace ganglion::core {

class secret_files;

/// Reads Kubernetes-style mounted secrets: `<dir>/<secret-name>/<key>`, or secrets from a
/// backend (cluster mode: Kubernetes Secrets read through the API). A store is bound to one
/// namespace (for_namespace): a backend reads that namespace's Secrets; a directory ignores it.
class secret_store {
public:
  /// Reads key `key` of secret `name` in namespace `namespace_name` (empty: the backend's
  /// default): the value, or nullopt with `error` (when given) saying why. Called from any
  /// thread; may block briefly.
  using lookup =
    std::function<std::optional<std::string>(const std::string& namespace_name,
                                             const std::string& name, const std::string& key,
                                             std::string* error)>;

  /// `dir` empty: every lookup fails.
  explicit secret_store(std::string dir);
  /// Secrets from `backend` instead of files; dir() is empty. file() writes the values it is
  /// asked for into `files` (null: a private directory in the temp directory).
  explicit secret_store(lookup backend, std::shared_ptr<secret_files> files = nullptr);

  /// The same secrets read in namespace `namespace_name` (a directory store ignores it).
  std::shared_ptr<const secret_store> for_namespace(std::string namespace_name) const;

  /// The secret value with one trailing newline removed, or nullopt when the file is missing or
  /// unreadable; `error` (when given) explains which file was looked for.
  std::optional<std::string> read(const std::string& name, const std::string& key,
                                  std::string* error = nullptr) const;

  /// A file holding the secret, for consumers that take a path (an SSH key, a NATS creds
  /// file): `<dir>/<name>/<key>` itself, or (backend) the value read now, written to a private
  /// file (0600) that is rewritten when the value changed. nullopt with `error` as read().
  std::optional<std::string> file(const std::string& name, const std::string& key,
                                  std::string* error = nullptr) const;

  /// The secrets directory.
  const std::string& dir() const noexcept { return dir_; }
  /// The namespace read (for_namespace); empty: the backend's default.
  const std::string& namespace_name() const noexcept { return namespace_; }
  /// True when the secrets come from a backend, not from dir().
  bool has_backend() const noexcept { return static_cast<bool>(backend_); }

private:
  std::string dir_;
  std::string namespace_;
  lookup backend_;
  std::shared_ptr<secret_files> files_;
};

/// Compares two secrets in time that depends only on their lengths.
bool constant_time_equal(const std::string& a, const std::string& b) noexcept;

} // namespace ganglion::core
