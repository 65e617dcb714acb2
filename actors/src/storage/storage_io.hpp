#pragma once

// The POSIX file operations the bus's log and the sensor store are built from. Every function
// reports failure as an errno value (0 on success) so callers can word the message.

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>

namespace ganglion::core {

/// An owned file descriptor, closed on destruction.
class unique_fd {
public:
  unique_fd() noexcept = default;
  /// Takes ownership of `fd` (-1: none).
  explicit unique_fd(int fd) noexcept : fd_(fd) {}
  /// Takes over `other`'s descriptor.
  unique_fd(unique_fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  /// Closes the held descriptor and takes over `other`'s.
  unique_fd& operator=(unique_fd&& other) noexcept {
    if (this != &other)
      reset(std::exchange(other.fd_, -1));
    return *this;
  }
  unique_fd(const unique_fd&) = delete;
  unique_fd& operator=(const unique_fd&) = delete;
  /// Closes the descriptor.
  ~unique_fd() { reset(); }

  /// The descriptor (-1: none).
  int get() const noexcept { return fd_; }
  /// True when a descriptor is held.
  explicit operator bool() const noexcept { return fd_ >= 0; }
  /// Closes the held descriptor and takes `fd`.
  void reset(int fd = -1) noexcept;

private:
  int fd_ = -1;
};

/// `strerror(error)`.
std::string error_text(int error);

/// Writes all of `size` bytes at `offset` (retrying short writes and EINTR); errno or 0.
int pwrite_all(int fd, const char* data, std::size_t size, std::uint64_t offset) noexcept;

/// Writes all of `size` bytes at the file position; errno or 0.
int write_all(int fd, const char* data, std::size_t size) noexcept;

/// Reads up to `size` bytes at `offset` into `data`, fewer only at the end of the file; sets
/// `done` to the count; errno or 0.
int pread_full(int fd, char* data, std::size_t size, std::uint64_t offset,
               std::size_t& done) noexcept;

/// fdatasync(fd); errno or 0.
int data_sync(int fd) noexcept;

/// Opens `directory` and fsyncs it, making created, renamed and deleted entries durable; errno
/// or 0.
int sync_directory(const std::string& directory) noexcept;

/// The whole content of `path` into `out`; errno (ENOENT when missing) or 0.
int read_whole_file(const std::string& path, std::string& out);

} // namespace ganglion::core
