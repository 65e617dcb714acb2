#pragma once

#include <chrono>
#include <functional>
#include <map>
#include <string>
#include <thread>
#include <vector>

namespace ganglion::app {

/// Watches the manifest files and directories given with `-f` (Linux inotify) and calls
/// `changed` on its own thread once a burst of changes has settled. Directories are watched
/// rather than files, so that editors that write a temporary file and rename it over the
/// manifest are seen; in a directory only `*.yaml` / `*.yml` files count (and Kubernetes'
/// `..data` swap of a mounted ConfigMap), a new subdirectory only when it holds some, and
/// nothing below an excluded directory (the engine's data directory) or a `..`-prefixed one
/// (a ConfigMap's timestamped copy, written before the `..data` swap) counts.
class manifest_watcher {
public:
  /// Starts watching `paths`, but nothing at or below `excluded`. Paths that do not exist are
  /// skipped with a warning. Throws std::system_error when inotify is unavailable.
  manifest_watcher(const std::vector<std::string>& paths, std::function<void()> changed,
                   std::vector<std::string> excluded = {},
                   std::chrono::milliseconds debounce = std::chrono::milliseconds(200));
  /// Stops watching and joins the thread.
  ~manifest_watcher();
  manifest_watcher(const manifest_watcher&) = delete;
  manifest_watcher& operator=(const manifest_watcher&) = delete;

private:
  /// A watched directory: every manifest below it counts (recursive), or only `files`.
  struct watched_dir {
    std::string path;
    bool recursive = false;
    std::vector<std::string> files;
  };

  /// Watches `dir` and its subdirectories; true when a manifest lies below it.
  bool watch_tree(const std::string& dir);
  void watch_dir(const std::string& dir, bool recursive, const std::string& file);
  /// True when `path` is an excluded directory or lies below one.
  bool excluded(const std::string& path) const;
  /// Reads pending events; true when one concerns a manifest.
  bool drain();
  void run();

  int inotify_ = -1;
  int stop_pipe_[2] = {-1, -1};
  std::function<void()> changed_;
  std::chrono::milliseconds debounce_;
  std::vector<std::string> excluded_; ///< absolute, normalized

  std::map<int, watched_dir> watches_;
  std::thread thread_;
};

} // namespace ganglion::app
