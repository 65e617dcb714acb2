#include "manifest_watcher.hpp"

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <system_error>

#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <spdlog/spdlog.h>

namespace ganglion::app {

namespace {

constexpr std::uint32_t watched_events =
  IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_CREATE | IN_DELETE;

bool is_manifest_name(const std::string& name) {
  auto ext = std::filesystem::path{name}.extension();
  return ext == ".yaml" || ext == ".yml" || name == "..data";
}

/// A mounted ConfigMap's timestamped directory (`..2026_12_01_22_00_00.123456789`): the loader
/// skips it, and its files change before `..data` is swapped to it, which alone counts.
bool is_kubernetes_internal(const std::string& name) {
  return name.starts_with("..");
}

/// `path` absolute, with symbolic links, `.` and `..` resolved as far as it exists.
std::string normalized(const std::string& path) {
  std::error_code ec;
  auto absolute = std::filesystem::absolute(path, ec);
  auto resolved = std::filesystem::weakly_canonical(absolute, ec);
  auto out = (ec ? absolute.lexically_normal() : resolved).string();
  while (out.size() > 1 && out.back() == '/')
    out.pop_back();
  return out;
}

} // namespace

manifest_watcher::manifest_watcher(const std::vector<std::string>& paths,
                                   std::function<void()> changed,
                                   std::vector<std::string> excluded,
                                   std::chrono::milliseconds debounce)
  : changed_(std::move(changed)), debounce_(debounce) {
  for (const auto& dir : excluded)
    if (!dir.empty())
      excluded_.push_back(normalized(dir));
  inotify_ = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
  if (inotify_ < 0)
    throw std::system_error(errno, std::generic_category(), "inotify_init1");
  if (pipe2(stop_pipe_, O_CLOEXEC) != 0) {
    close(inotify_);
    throw std::system_error(errno, std::generic_category(), "pipe2");
  }
  namespace fs = std::filesystem;
  for (const auto& given : paths) {
    std::error_code ec;
    auto path = fs::absolute(given, ec);
    if (fs::is_directory(path, ec)) {
      watch_tree(normalized(path.string()));
    } else if (path.has_parent_path() && fs::is_directory(path.parent_path(), ec)) {
      // The file itself may be a link (a mounted ConfigMap's): only its directory is resolved.
      watch_dir(normalized(path.parent_path().string()), false, path.filename().string());
    } else {
      spdlog::warn("watch: {} does not exist; changes to it are not watched", given);
    }
  }
  thread_ = std::thread([this] { run(); });
}

manifest_watcher::~manifest_watcher() {
  if (thread_.joinable()) {
    char byte = 0;
    [[maybe_unused]] auto n = write(stop_pipe_[1], &byte, 1);
    thread_.join();
  }
  close(stop_pipe_[0]);
  close(stop_pipe_[1]);
  close(inotify_);
}

bool manifest_watcher::watch_tree(const std::string& dir) {
  if (excluded(dir))
    return false;
  watch_dir(dir, true, {});
  bool manifests = false;
  std::error_code ec;
  for (std::filesystem::recursive_directory_iterator it{dir, ec}, end; !ec && it != end;
       it.increment(ec)) {
    auto path = it->path().string();
    std::error_code unreadable;
    auto name = it->path().filename().string();
    if (!it->is_directory(unreadable)) {
      manifests = manifests || is_manifest_name(name);
    } else if (excluded(path) || is_kubernetes_internal(name)) {
      it.disable_recursion_pending();
    } else {
      watch_dir(path, true, {});
    }
  }
  return manifests;
}

bool manifest_watcher::excluded(const std::string& path) const {
  return std::any_of(excluded_.begin(), excluded_.end(), [&](const std::string& dir) {
    return path.starts_with(dir) && (path.size() == dir.size() || path[dir.size()] == '/');
  });
}

void manifest_watcher::watch_dir(const std::string& dir, bool recursive, const std::string& file) {
  auto wd = inotify_add_watch(inotify_, dir.c_str(), watched_events | IN_ONLYDIR);
  if (wd < 0) {
    spdlog::warn("watch: cannot watch {}: {}", dir, std::generic_category().message(errno));
    return;
  }
  auto& w = watches_[wd];
  w.path = dir;
  w.recursive = w.recursive || recursive;
  if (!file.empty() && std::find(w.files.begin(), w.files.end(), file) == w.files.end())
    w.files.push_back(file);
}

bool manifest_watcher::drain() {
  bool relevant = false;
  alignas(inotify_event) char buffer[16384];
  for (;;) {
    auto n = read(inotify_, buffer, sizeof buffer);
    if (n <= 0)
      return relevant;
    for (char* p = buffer; p < buffer + n;) {
      const auto* ev = reinterpret_cast<const inotify_event*>(p);
      p += sizeof(inotify_event) + ev->len;
      auto it = watches_.find(ev->wd);
      if (it == watches_.end())
        continue;
      if (ev->mask & IN_IGNORED) { // the directory went away
        watches_.erase(it);
        continue;
      }
      if (ev->len == 0)
        continue;
      std::string name = ev->name;
      const auto& w = it->second;
      if (w.recursive && (ev->mask & IN_ISDIR)) {
        auto path = w.path + "/" + name;
        if (excluded(path) || is_kubernetes_internal(name))
          continue;
        // A new directory counts once it holds manifests (then, or when they are written); a
        // directory that went may have held some.
        if (ev->mask & (IN_CREATE | IN_MOVED_TO))
          relevant = watch_tree(path) || relevant;
        else
          relevant = true;
        continue;
      }
      if (std::find(w.files.begin(), w.files.end(), name) != w.files.end()
          || (w.recursive && is_manifest_name(name)) || name == "..data")
        relevant = true;
    }
  }
}

void manifest_watcher::run() {
  pollfd fds[2] = {{inotify_, POLLIN, 0}, {stop_pipe_[0], POLLIN, 0}};
  bool dirty = false;
  for (;;) {
    // While changes are settling, wait at most the debounce time for the next one.
    int timeout = dirty ? static_cast<int>(debounce_.count()) : -1;
    auto ready = poll(fds, 2, timeout);
    if (ready < 0 && errno == EINTR)
      continue;
    if (ready < 0 || (fds[1].revents & POLLIN))
      return;
    if (ready == 0) {
      dirty = false;
      changed_();
      continue;
    }
    if (fds[0].revents & POLLIN)
      dirty = drain() || dirty;
  }
}

} // namespace ganglion::app
