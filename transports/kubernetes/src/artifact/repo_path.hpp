#pragma once

#include <cstddef>
#include <string>

// Reading a file beneath a directory (git's `filePath` in the clone) through no symbolic link,
// and reading a file descriptor no further than a size limit.

namespace ganglion::kubernetes::detail {

/// How read_beneath resolves the path.
enum class resolve_mode {
  automatic, ///< openat2(2), the component walk where the kernel lacks it (ENOSYS, EPERM)
  walk,      ///< one openat(O_NOFOLLOW) per component
};

/// What read_beneath needs besides the path.
struct beneath_request {
  /// The directory the path is relative to (the clone's work tree).
  std::string root;
  /// Relative, `/`-separated; never absolute, never `..` (repo_file_path_problem).
  std::string file_path;
  /// Bytes accepted; one more is never read.
  std::size_t max_bytes = 0;
  /// Starts every message (`….git.filePath`).
  std::string at;
  /// Starts the size message (`….git`), as check_size words it.
  std::string size_at;
  /// Where the file was looked for, for "no file" (`<url> at branch master`).
  std::string where;
  resolve_mode mode = resolve_mode::automatic;
};

/// The bytes of `request.file_path` beneath `request.root`, refusing every symbolic link on the
/// way (each component, the last included), `..`, absolute paths and anything but a regular
/// file; at most max_bytes (larger: the size error, read no further). Throws artifact_error.
std::string read_beneath(const beneath_request& request);

/// Up to `limit` bytes from `fd` (its current offset on); `*over` set when there was more.
/// Throws std::system_error on a read error.
std::string read_at_most(int fd, std::size_t limit, bool* over);

} // namespace ganglion::kubernetes::detail
