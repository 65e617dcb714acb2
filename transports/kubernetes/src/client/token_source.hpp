#pragma once

#include <chrono>
#include <mutex>
#include <string>

namespace ganglion::kubernetes::detail {

/// The bearer token of a cluster: given inline, or read from a file and read again every
/// `refresh` (and on demand after a 401) as Kubernetes rotates it. Thread-safe.
class token_source {
public:
  /// Reads `file` when given; throws config_error when it cannot be read or is empty.
  token_source(std::string inline_token, std::string file, std::chrono::milliseconds refresh);

  /// The token to send now; empty when there is none.
  std::string current();

  /// Reads the file again at once; true when the token changed.
  bool reload();

  /// Whether the token comes from a file.
  bool from_file() const noexcept { return !file_.empty(); }

private:
  /// The token in the file, or empty with `why` set.
  std::string read(std::string& why) const;

  std::string file_;
  std::chrono::milliseconds refresh_;
  std::mutex mutex_;
  std::string token_;
  std::chrono::steady_clock::time_point read_at_;
};

} // namespace ganglion::kubernetes::detail
