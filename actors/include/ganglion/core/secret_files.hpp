#pragma once

#include <map>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

#include "ganglion/core/secrets.hpp"

namespace ganglion::core {

/// Secret values written to private files, for consumers that read a path (libgit2's SSH key,
/// the NATS client's creds file): one 0700 directory made on first use under a parent
/// directory, one 0600 file per namespace/name/key, replaced atomically when its value
/// changes, the whole directory removed on destruction. Thread-safe.
class secret_files {
public:
  /// `parent`: where the private directory is made; empty: the temp directory ($TMPDIR).
  explicit secret_files(std::string parent = {});
  /// Removes the directory and every file in it.
  ~secret_files();
  secret_files(const secret_files&) = delete;
  secret_files& operator=(const secret_files&) = delete;

  /// The path of the file of `namespace_name`/`name`/`key` holding `value` (followed by a
  /// newline when it has none, as PEM and creds files end), written when it does not hold it
  /// yet. Throws std::runtime_error (never naming the value) when it cannot be written.
  std::string write(const std::string& namespace_name, const std::string& name,
                    const std::string& key, const std::string& value);

  /// The files written so far: (namespace, name, key).
  std::vector<std::tuple<std::string, std::string, std::string>> written() const;

  /// Reads every file's secret again through `read` and rewrites those whose value changed
  /// (a backend calls it when its Secrets change); one that cannot be read keeps its file.
  void refresh(const secret_store::lookup& read);

  /// The private directory; empty until the first write.
  std::string dir() const;

private:
  mutable std::mutex mutex_;
  std::string parent_;
  std::string dir_;
  std::map<std::tuple<std::string, std::string, std::string>, std::string> contents_;
};

} // namespace ganglion::core
