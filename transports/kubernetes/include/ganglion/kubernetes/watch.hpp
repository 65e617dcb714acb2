#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ganglion/kubernetes/client.hpp"

namespace ganglion::kubernetes {

/// One change a watch reports.
struct watch_event {
  /// `ADDED`, `MODIFIED` or `DELETED`.
  std::string type;
  /// The object, as JSON text.
  std::string object;
};

/// What a watcher reports; each called on the watcher's thread, one at a time.
struct watch_handlers {
  /// The complete set of objects, as JSON text, at the start and after every relist (a watch
  /// that got `410 Gone`): the receiver compares it with what it knew.
  std::function<void(std::vector<std::string> objects)> on_list;
  /// A change after the last list.
  std::function<void(const watch_event&)> on_event;
  /// A failed list or watch (it is retried with backoff); the API's message.
  std::function<void(const std::string& error)> on_error;
};

/// Settings of a watcher.
struct watch_options {
  std::string label_selector{};
  std::string field_selector{};
  /// Objects per list page (`limit`, then `continue`).
  int page_size = 500;
  /// First and longest wait before retrying a failed list or watch.
  std::chrono::milliseconds min_backoff{500};
  std::chrono::milliseconds max_backoff{30000};
};

/// Lists a collection, then watches it from the list's resourceVersion (with bookmarks),
/// watching again from the last version seen when a stream ends and listing again on
/// `410 Gone`. Runs on its own thread until destroyed.
class watcher {
public:
  /// `collection`: e.g. `/api/v1/namespaces/default/configmaps` or `/apis/apps/v1/deployments`.
  watcher(api_client& client, std::string collection, watch_handlers handlers,
          watch_options options = {});
  /// Stops the thread (an open stream is cut) and waits for it.
  ~watcher();
  watcher(const watcher&) = delete;
  watcher& operator=(const watcher&) = delete;

  /// The last resourceVersion seen (list, event or bookmark).
  std::string resource_version() const;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::kubernetes
