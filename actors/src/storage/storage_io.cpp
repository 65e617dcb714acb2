#include "storage/storage_io.hpp"

#include <cerrno>
#include <cstring>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ganglion::core {

void unique_fd::reset(int fd) noexcept {
  if (fd_ >= 0)
    ::close(fd_);
  fd_ = fd;
}

std::string error_text(int error) {
  return std::strerror(error);
}

int pwrite_all(int fd, const char* data, std::size_t size, std::uint64_t offset) noexcept {
  while (size > 0) {
    auto n = ::pwrite(fd, data, size, static_cast<off_t>(offset));
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return errno;
    }
    if (n == 0)
      return EIO;
    data += n;
    size -= static_cast<std::size_t>(n);
    offset += static_cast<std::uint64_t>(n);
  }
  return 0;
}

int write_all(int fd, const char* data, std::size_t size) noexcept {
  while (size > 0) {
    auto n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return errno;
    }
    if (n == 0)
      return EIO;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return 0;
}

int pread_full(int fd, char* data, std::size_t size, std::uint64_t offset,
               std::size_t& done) noexcept {
  done = 0;
  while (done < size) {
    auto n = ::pread(fd, data + done, size - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR)
        continue;
      return errno;
    }
    if (n == 0)
      break;
    done += static_cast<std::size_t>(n);
  }
  return 0;
}

int data_sync(int fd) noexcept {
  while (::fdatasync(fd) != 0) {
    if (errno != EINTR)
      return errno;
  }
  return 0;
}

int sync_directory(const std::string& directory) noexcept {
  unique_fd dir{::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC)};
  if (!dir)
    return errno;
  while (::fsync(dir.get()) != 0) {
    if (errno != EINTR)
      return errno;
  }
  return 0;
}

int read_whole_file(const std::string& path, std::string& out) {
  out.clear();
  unique_fd fd{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (!fd)
    return errno;
  struct stat st {};
  if (::fstat(fd.get(), &st) != 0)
    return errno;
  out.resize(static_cast<std::size_t>(st.st_size));
  std::size_t got = 0;
  if (int error = pread_full(fd.get(), out.data(), out.size(), 0, got))
    return error;
  out.resize(got);
  return 0;
}

} // namespace ganglion::core
