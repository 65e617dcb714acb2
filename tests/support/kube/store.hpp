#pragma once

// The objects of a test server: resourceVersions, watch history and subscribers, write hooks.

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api_server.hpp"
#include "hook_runner.hpp"
#include "selectors.hpp"

namespace ganglion::test::kube {

/// A page of a list.
struct list_page {
  json items = json::array();
  std::string resource_version;
  /// The `continue` token of the next page; "" on the last.
  std::string continue_token;
  /// Objects after this page, when there are any.
  std::optional<std::int64_t> remaining;
};

/// Which objects a watch reports.
struct watch_filter {
  std::string ns; ///< every namespace when empty
  selector labels;
  selector fields;
};

/// Receives watch events (`{"type":…,"object":…}`) under the store's lock: must not block.
using watch_sink = std::function<void(const json& event)>;

/// Computes the object to store from the current one (null when absent); throws api_error.
using object_change = std::function<json(const json* current)>;

/// The resources and objects of a server. Every write gets the next resourceVersion (a
/// global counter, as etcd's), is kept in a bounded history for watch replay, goes to the
/// matching watches and, through the hook runner, to the write hooks. Thread-safe.
class store {
public:
  /// Serves the built-in resources; keeps `history_limit` writes for replay.
  explicit store(std::size_t history_limit);

  /// `group/version/plural`: how hooks and objects refer to a resource.
  static std::string key_of(const resource_type& type);

  void add_resource(resource_type type);
  void remove_resource(const std::string& group, const std::string& version,
                       const std::string& plural);
  std::vector<resource_type> resources() const;
  std::optional<resource_type> find(const std::string& group, const std::string& version,
                                    const std::string& plural) const;
  std::optional<resource_type> find_kind(std::string_view api_version, std::string_view kind) const;

  std::optional<json> get(const resource_type& type, const std::string& ns,
                          const std::string& name) const;
  /// The objects in `ns` (all when empty) matching `filter`, from after the `continue_token`
  /// position, at most `limit` (0: all). Throws api_error for a bad or expired token.
  list_page list(const resource_type& type, const watch_filter& filter, std::int64_t limit,
                 const std::string& continue_token) const;
  /// Writes the object `change` makes of the current one (`ns`/`name`), filling metadata:
  /// uid, creationTimestamp and generation 1 when new (kept otherwise; generation + 1 when
  /// more than metadata and status changed), the next resourceVersion. `verb` and
  /// `subresource` are what hooks see. Returns the stored object.
  json write(const resource_type& type, const std::string& ns, const std::string& name,
             const object_change& change, const std::string& verb,
             const std::string& subresource = {});
  /// Deletes an object; returns it (with the deletion's resourceVersion), nullopt when absent.
  std::optional<json> remove(const resource_type& type, const std::string& ns,
                             const std::string& name);

  std::string resource_version() const;
  /// Forgets the history: watches from an earlier version get 410.
  void compact();

  /// Opens a watch: replays to `sink` the writes after `from_version` (or, when it is "" or
  /// "0", ADDED for every current object), then sends every later write. Throws api_error 410
  /// when `from_version` is older than the history. Returns the id for unwatch().
  int watch(const resource_type& type, watch_filter filter, const std::string& from_version,
            watch_sink sink);
  void unwatch(int id);
  std::size_t watch_count() const;

  /// The write hooks (add() and remove() are thread-safe).
  hook_runner& hooks() { return hooks_; }

private:
  struct change {
    std::uint64_t version;
    std::string resource_key;
    std::string type;
    json object;
    json previous;
  };
  struct subscriber {
    std::string resource_key;
    watch_filter filter;
    watch_sink sink;
  };
  using objects = std::map<std::pair<std::string, std::string>, json>;

  const resource_type* type_locked(const std::string& key) const;
  void add_locked(resource_type type);
  void remove_locked(const std::string& group, const std::string& version,
                     const std::string& plural);
  void record(change c);
  static std::optional<json> translate(const change& c, const watch_filter& filter);

  mutable std::mutex mutex_;
  std::vector<resource_type> types_;
  std::map<std::string, objects> objects_;
  std::uint64_t version_ = 0;
  std::uint64_t compacted_ = 0;
  std::size_t history_limit_;
  std::deque<change> history_;
  std::map<int, subscriber> subscribers_;
  int next_watch_ = 1;
  hook_runner hooks_;
};

} // namespace ganglion::test::kube
