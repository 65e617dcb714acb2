#pragma once

// Private: what the file source reads changes from: inotify (as Go's fsnotify) or a stat
// poller (as github.com/radovskyb/watcher, Argo's `polling: true`).

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "client/fs_event.hpp"

namespace ganglion::file {

/// Raised when a directory cannot be watched (missing, not readable, no inotify instance).
class watch_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Changes of one directory (not recursive), in the order they happened.
class watcher {
public:
  virtual ~watcher() = default;
  /// Waits up to `timeout` for changes and returns them (empty when none came).
  virtual std::vector<fs_event> wait(std::chrono::milliseconds timeout) = 0;
  /// Why the watch ended (the directory was removed or moved, the kernel dropped events);
  /// empty while it lasts. The changes returned before it are complete.
  virtual std::string ended() const = 0;
};

/// Watches `directory` with inotify: CREATE (IN_CREATE, IN_MOVED_TO), WRITE (IN_MODIFY),
/// REMOVE (IN_DELETE, IN_DELETE_SELF), RENAME (IN_MOVED_FROM, IN_MOVE_SELF), CHMOD
/// (IN_ATTRIB); names are `<filepath.Clean(directory)>/<entry>`. Throws watch_error.
std::unique_ptr<watcher> make_inotify_watcher(const std::string& directory);

/// Polls `directory` every `interval` by stat: CREATE, REMOVE, WRITE (modification time),
/// CHMOD (mode), RENAME (a removed and a created entry with one inode); names are base names,
/// and the directory itself is one of the entries (adding a file WRITEs it). Throws
/// watch_error.
std::unique_ptr<watcher> make_stat_poller(const std::string& directory,
                                          std::chrono::milliseconds interval);

} // namespace ganglion::file
