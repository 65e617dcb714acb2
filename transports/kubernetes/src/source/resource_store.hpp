#pragma once

// Private: what the resource source knows of the watched collection, and the changes a list or
// a watch event means (a shared informer's store and its DeltaFIFO, as Argo's informer uses
// them).

#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include <simdjson.h>

#include "ganglion/kubernetes/watch.hpp"

namespace ganglion::kubernetes::detail {

/// One change to report: `type` ADD, UPDATE or DELETE; `old_object` only for UPDATE.
struct resource_change {
  std::string type;
  std::string object;
  std::string old_object;
};

/// The objects of a collection by `namespace/name`, with their resourceVersion.
class resource_store {
public:
  /// The complete set after a (re)list: objects not known are ADD, known ones with another
  /// resourceVersion UPDATE, known ones that are gone DELETE (their last known state), in
  /// that order; a known object with the same resourceVersion is no change. Objects that are
  /// not JSON objects with a name are skipped and counted in `skipped()`.
  std::vector<resource_change> replace(const std::vector<std::string>& objects);

  /// A watch event: ADDED or MODIFIED of a known object is an UPDATE (none when its
  /// resourceVersion did not change), of an unknown one an ADD; DELETED of a known object a
  /// DELETE with the event's object. Other types are no change.
  std::vector<resource_change> apply(const watch_event& event);

  /// Objects known.
  std::size_t size() const noexcept { return objects_.size(); }

  /// Objects of lists and events that could not be read.
  std::size_t skipped() const noexcept { return skipped_; }

private:
  struct entry {
    std::string resource_version;
    std::string object;
  };
  struct identity {
    std::string key;
    std::string resource_version;
  };

  /// The key and resourceVersion of `object`; nullopt (and counted) when it has no name.
  std::optional<identity> identify(const std::string& object);
  /// Stores `object` under `id` and returns the change it is.
  void upsert(identity id, const std::string& object, std::vector<resource_change>& out);

  std::unordered_map<std::string, entry> objects_;
  simdjson::dom::parser parser_;
  std::size_t skipped_ = 0;
};

} // namespace ganglion::kubernetes::detail
