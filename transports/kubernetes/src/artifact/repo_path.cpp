#include "artifact/repo_path.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <linux/openat2.h>
#include <optional>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <system_error>
#include <unistd.h>
#include <utility>
#include <vector>

#include "artifact/artifact.hpp"

namespace ganglion::kubernetes::detail {

namespace {

/// Closes on scope exit.
class fd_guard {
public:
  explicit fd_guard(int fd) noexcept : fd_(fd) {}
  ~fd_guard() {
    if (fd_ >= 0)
      ::close(fd_);
  }
  fd_guard(const fd_guard&) = delete;
  fd_guard& operator=(const fd_guard&) = delete;
  int get() const noexcept { return fd_; }
  int release() noexcept { return std::exchange(fd_, -1); }
  void reset(int fd) noexcept {
    if (fd_ >= 0)
      ::close(fd_);
    fd_ = fd;
  }

private:
  int fd_;
};

std::vector<std::string> components(const std::string& path) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= path.size()) {
    auto slash = path.find('/', start);
    auto part = path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (!part.empty() && part != ".")
      out.push_back(std::move(part));
    if (slash == std::string::npos)
      break;
    start = slash + 1;
  }
  return out;
}

constexpr int file_flags = O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK;

/// openat2 beneath `root_fd` with no symbolic link; -1 with errno set on failure.
int open_with_openat2(int root_fd, const std::string& path) {
  open_how how{};
  how.flags = file_flags;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
  return static_cast<int>(::syscall(SYS_openat2, root_fd, path.c_str(), &how, sizeof how));
}

/// One openat(O_NOFOLLOW) per component; -1 with errno set on failure (ELOOP: a link).
int open_by_walk(int root_fd, const std::vector<std::string>& parts) {
  fd_guard dir{::fcntl(root_fd, F_DUPFD_CLOEXEC, 0)};
  if (dir.get() < 0)
    return -1;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (parts[i] == "..") {
      errno = EXDEV;
      return -1;
    }
    bool last = i + 1 == parts.size();
    int flags = last ? file_flags : O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_DIRECTORY;
    int next = ::openat(dir.get(), parts[i].c_str(), flags);
    if (next < 0)
      return -1;
    dir.reset(next);
  }
  return dir.release();
}

/// The first component of `parts` that is a symbolic link, as a path from the root; nullopt
/// when none is (any more).
std::optional<std::string> first_link(int root_fd, const std::vector<std::string>& parts) {
  fd_guard dir{::fcntl(root_fd, F_DUPFD_CLOEXEC, 0)};
  std::string walked;
  for (const auto& part : parts) {
    walked += (walked.empty() ? "" : "/") + part;
    struct stat info {};
    if (dir.get() < 0 || ::fstatat(dir.get(), part.c_str(), &info, AT_SYMLINK_NOFOLLOW) != 0)
      return std::nullopt;
    if (S_ISLNK(info.st_mode))
      return walked;
    dir.reset(::openat(dir.get(), part.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_DIRECTORY));
  }
  return std::nullopt;
}

[[noreturn]] void refuse(const beneath_request& r, const std::string& why) {
  throw artifact_error(r.at + ": \"" + r.file_path + "\" " + why);
}

} // namespace

std::string read_at_most(int fd, std::size_t limit, bool* over) {
  std::string out;
  char buffer[16384];
  *over = false;
  for (;;) {
    auto room = limit + 1 - out.size();
    auto n = ::read(fd, buffer, std::min(sizeof buffer, room));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0)
      throw std::system_error(errno, std::generic_category(), "read");
    if (n == 0)
      return out;
    out.append(buffer, static_cast<std::size_t>(n));
    if (out.size() > limit) {
      out.resize(limit);
      *over = true;
      return out;
    }
  }
}

std::string read_beneath(const beneath_request& r) {
  auto parts = components(r.file_path);
  if (r.file_path.starts_with("/"))
    refuse(r, "is an absolute path; filePath is relative to the repository's root");
  for (const auto& part : parts)
    if (part == "..")
      refuse(r, "leaves the repository (\"..\" is not allowed in the filePath)");
  if (parts.empty())
    refuse(r, "names no file");
  fd_guard root{::open(r.root.c_str(), O_RDONLY | O_CLOEXEC | O_DIRECTORY | O_NOFOLLOW)};
  if (root.get() < 0)
    throw artifact_error(r.at + ": cannot open the clone: " + std::strerror(errno));
  std::string joined;
  for (const auto& part : parts)
    joined += (joined.empty() ? "" : "/") + part;
  int fd = -1;
  if (r.mode == resolve_mode::automatic) {
    fd = open_with_openat2(root.get(), joined);
    if (fd < 0 && (errno == ENOSYS || errno == EPERM))
      fd = open_by_walk(root.get(), parts);
  } else {
    fd = open_by_walk(root.get(), parts);
  }
  fd_guard file{fd};
  if (fd < 0) {
    int error = errno;
    if (auto link = first_link(root.get(), parts)) {
      if (*link == joined)
        refuse(r, "is a symbolic link, which is not allowed");
      refuse(r, "goes through the symbolic link \"" + *link + "\", which is not allowed");
    }
    if (error == ENOENT || error == ENOTDIR)
      throw artifact_error(r.at + ": no file \"" + r.file_path + "\" in " + r.where);
    if (error == EXDEV)
      refuse(r, "leaves the repository");
    refuse(r, std::string{"cannot be opened: "} + std::strerror(error));
  }
  struct stat info {};
  if (::fstat(file.get(), &info) != 0 || !S_ISREG(info.st_mode))
    refuse(r, "is not a file");
  auto too_large = [&] {
    throw artifact_error(r.size_at + ": the artifact is larger than the limit of "
                         + std::to_string(r.max_bytes) + " bytes");
  };
  if (static_cast<std::size_t>(info.st_size) > r.max_bytes)
    too_large();
  bool over = false;
  std::string bytes;
  try {
    bytes = read_at_most(file.get(), r.max_bytes, &over);
  } catch (const std::system_error& e) {
    refuse(r, std::string{"cannot be read: "} + e.code().message());
  }
  if (over)
    too_large();
  return bytes;
}

} // namespace ganglion::kubernetes::detail
