// inotify on one directory, mapped to operations the way fsnotify (v1.10) maps them.

#include <cerrno>
#include <cstring>

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <fmt/format.h>

#include "client/watcher.hpp"

namespace ganglion::file {

namespace {

constexpr std::uint32_t watch_mask = IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_ATTRIB
                                     | IN_MODIFY | IN_MOVE_SELF | IN_DELETE | IN_DELETE_SELF;

std::uint32_t op_of(std::uint32_t mask) {
  std::uint32_t op = 0;
  if (mask & (IN_CREATE | IN_MOVED_TO))
    op |= op_create;
  if (mask & (IN_DELETE_SELF | IN_DELETE))
    op |= op_remove;
  if (mask & IN_MODIFY)
    op |= op_write;
  if (mask & (IN_MOVE_SELF | IN_MOVED_FROM))
    op |= op_rename;
  if (mask & IN_ATTRIB)
    op |= op_chmod;
  return op;
}

class inotify_watcher final : public watcher {
public:
  explicit inotify_watcher(const std::string& directory) : path_(go_clean(directory)) {
    fd_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (fd_ < 0)
      throw watch_error(fmt::format("cannot create an inotify instance: {}", std::strerror(errno)));
    if (inotify_add_watch(fd_, path_.c_str(), watch_mask) < 0) {
      int error = errno;
      ::close(fd_);
      throw watch_error(fmt::format("cannot watch directory {}: {}", directory,
                                    std::strerror(error)));
    }
  }
  ~inotify_watcher() override { ::close(fd_); }

  std::vector<fs_event> wait(std::chrono::milliseconds timeout) override {
    std::vector<fs_event> out;
    if (!ended_.empty())
      return out;
    pollfd p{fd_, POLLIN, 0};
    int n = ::poll(&p, 1, static_cast<int>(timeout.count()));
    if (n <= 0)
      return out;
    alignas(inotify_event) char buffer[64 * 1024];
    while (true) {
      auto got = ::read(fd_, buffer, sizeof buffer);
      if (got <= 0)
        break;
      for (char* at = buffer; at < buffer + got;) {
        const auto* ev = reinterpret_cast<const inotify_event*>(at);
        at += sizeof(inotify_event) + ev->len;
        read_one(*ev, out);
      }
    }
    return out;
  }

  std::string ended() const override { return ended_; }

private:
  void read_one(const inotify_event& ev, std::vector<fs_event>& out) {
    if (ev.mask & IN_Q_OVERFLOW) {
      ended_ = "the kernel's inotify queue overflowed: changes were lost";
      return;
    }
    if (ev.mask & IN_IGNORED) {
      if (ended_.empty())
        ended_ = fmt::format("directory {} is no longer watched (removed, moved or unmounted)",
                             path_);
      return;
    }
    std::string name = path_;
    if (ev.len > 0)
      name += "/" + std::string{ev.name};
    if (auto op = op_of(ev.mask))
      out.push_back({std::move(name), op});
    if (ev.mask & IN_MOVE_SELF) // fsnotify removes the watch of a moved directory
      ended_ = fmt::format("directory {} was moved away", path_);
  }

  std::string path_;
  int fd_ = -1;
  std::string ended_;
};

} // namespace

std::unique_ptr<watcher> make_inotify_watcher(const std::string& directory) {
  return std::make_unique<inotify_watcher>(directory);
}

} // namespace ganglion::file
