#pragma once

#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>

namespace ganglion::app {

/// The bearer token of `--admin-token-file`: read at start, and read again when the file
/// changes (a rotated Kubernetes Secret), keeping the previous token while the new file is
/// unreadable or empty.
class admin_token {
public:
  /// Reads `path`, trailing whitespace (the newline) removed; throws std::runtime_error when the
  /// file cannot be read or holds no token.
  explicit admin_token(std::string path);

  /// True when `authorization` is `Bearer <token>` (the scheme in any case), compared in
  /// constant time.
  bool accepts(std::string_view authorization);

  /// The token now (the file read again when it changed).
  std::string current();

private:
  /// The file's identity and version: a new one means reading it again.
  struct version {
    std::uint64_t device = 0, inode = 0, size = 0;
    std::int64_t mtime_ns = 0;
    bool operator==(const version&) const = default;
  };

  std::string path_;
  std::mutex mutex_;
  std::string token_;
  version seen_;
};

} // namespace ganglion::app
