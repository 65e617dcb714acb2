// A stat poller with github.com/radovskyb/watcher's rules (v1.0.7, one directory, not
// recursive): each poll lists the directory and compares with the previous listing.

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <map>
#include <optional>
#include <thread>

#include <dirent.h>
#include <sys/stat.h>

#include <fmt/format.h>

#include "client/watcher.hpp"

namespace ganglion::file {

namespace {

struct entry_info {
  std::string base; ///< FileInfo.Name()
  std::int64_t mtime_ns = 0;
  mode_t mode = 0;
  dev_t dev = 0;
  ino_t ino = 0;
};

entry_info info_of(std::string base, const struct stat& st) {
  return {std::move(base),
          static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec,
          st.st_mode, st.st_dev, st.st_ino};
}

std::string base_name(const std::string& clean) {
  if (clean == "/")
    return clean;
  auto slash = clean.rfind('/');
  return slash == std::string::npos ? clean : clean.substr(slash + 1);
}

using listing = std::map<std::string, entry_info>; // by path, as the watcher keys its files

class stat_poller final : public watcher {
public:
  stat_poller(const std::string& directory, std::chrono::milliseconds interval)
    : path_(go_clean(directory)), interval_(interval) {
    std::string error;
    auto first = list(error);
    if (!first)
      throw watch_error(fmt::format("cannot watch directory {}: {}", directory, error));
    files_ = std::move(*first);
    next_ = std::chrono::steady_clock::now() + interval_;
  }

  std::vector<fs_event> wait(std::chrono::milliseconds timeout) override {
    std::vector<fs_event> out;
    if (!ended_.empty())
      return out;
    auto now = std::chrono::steady_clock::now();
    if (next_ > now) {
      auto pause = std::min<std::chrono::steady_clock::duration>(next_ - now, timeout);
      std::this_thread::sleep_for(pause);
      if (std::chrono::steady_clock::now() < next_)
        return out;
    }
    next_ = std::chrono::steady_clock::now() + interval_;
    std::string error;
    auto current = list(error);
    if (!current) {
      ended_ = fmt::format("directory {} can no longer be listed: {}", path_, error);
      return out;
    }
    compare(*current, out);
    files_ = std::move(*current);
    return out;
  }

  std::string ended() const override { return ended_; }

private:
  std::optional<listing> list(std::string& error) const {
    listing out;
    struct stat st{};
    if (::stat(path_.c_str(), &st) != 0) {
      error = std::strerror(errno);
      return std::nullopt;
    }
    out.emplace(path_, info_of(base_name(path_), st));
    if (!S_ISDIR(st.st_mode))
      return out;
    DIR* dir = ::opendir(path_.c_str());
    if (dir == nullptr) {
      error = std::strerror(errno);
      return std::nullopt;
    }
    while (auto* d = ::readdir(dir)) {
      std::string name = d->d_name;
      if (name == "." || name == "..")
        continue;
      auto path = path_ == "/" ? "/" + name : path_ + "/" + name;
      if (::lstat(path.c_str(), &st) == 0) // gone between readdir and lstat: next poll
        out.emplace(path, info_of(name, st));
    }
    ::closedir(dir);
    return out;
  }

  void compare(const listing& current, std::vector<fs_event>& out) const {
    listing removes, creates;
    for (const auto& [path, info] : files_)
      if (!current.count(path))
        removes.emplace(path, info);
    for (const auto& [path, info] : current) {
      auto old = files_.find(path);
      if (old == files_.end()) {
        creates.emplace(path, info);
        continue;
      }
      if (old->second.mtime_ns != info.mtime_ns)
        out.push_back({info.base, op_write});
      if (old->second.mode != info.mode)
        out.push_back({info.base, op_chmod});
    }
    // One directory: a removed and a created entry that are the same file were renamed (the
    // event carries the old entry's name).
    for (auto r = removes.begin(); r != removes.end();) {
      auto c = creates.begin();
      while (c != creates.end()
             && !(c->second.dev == r->second.dev && c->second.ino == r->second.ino))
        ++c;
      if (c == creates.end()) {
        ++r;
        continue;
      }
      out.push_back({r->second.base, op_rename});
      creates.erase(c);
      r = removes.erase(r);
    }
    for (const auto& [path, info] : creates)
      out.push_back({info.base, op_create});
    for (const auto& [path, info] : removes)
      out.push_back({info.base, op_remove});
  }

  std::string path_;
  std::chrono::milliseconds interval_;
  std::chrono::steady_clock::time_point next_;
  listing files_;
  std::string ended_;
};

} // namespace

std::unique_ptr<watcher> make_stat_poller(const std::string& directory,
                                          std::chrono::milliseconds interval) {
  return std::make_unique<stat_poller>(directory, interval);
}

} // namespace ganglion::file
