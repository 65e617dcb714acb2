#pragma once

// What the conformance tests publish and how they watch deliveries, publish outcomes and
// ownership, shared by the suite's files.

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "bus_inbox.hpp"
#include "eventually.hpp"
#include "ganglion/core/remote_bus.hpp"

namespace ganglion::test::bus_conformance {

using namespace std::chrono_literals;

/// An event of `source`/`subject` with every field set, the data including bytes that are not
/// text (NUL, 0xff), so a driver that changes any of them is seen.
inline core::event make_event(const std::string& source, const std::string& subject,
                              const std::string& id) {
  core::event e;
  e.id = id;
  e.source = source;
  e.subject = subject;
  e.type = "webhook";
  e.time = "2026-12-05T01:02:03.123456789Z";
  e.datacontenttype = "application/octet-stream";
  e.specversion = "1.0";
  e.data = std::string("bytes of ") + id + std::string("\0\xff\x01 end", 7);
  e.namespace_ = "team-a";
  return e;
}

/// Every field of the event as published (the sequence is the bus's).
inline bool same_event(const core::event& a, const core::event& b) {
  return a.id == b.id && a.source == b.source && a.subject == b.subject && a.type == b.type
         && a.time == b.time && a.datacontenttype == b.datacontenttype
         && a.specversion == b.specversion && a.data == b.data && a.namespace_ == b.namespace_;
}

/// The outcomes of publishes: each must come exactly once. An outcome that comes after this
/// object is gone (a bus destroyed later fails what it still holds) is recorded nowhere.
class outcomes {
public:
  /// Publishes `e` and records its outcome under its id.
  void publish(core::remote_bus& bus, core::event e) {
    auto id = e.id;
    {
      std::lock_guard guard{record_->mutex};
      record_->calls[id] = 0;
    }
    bus.publish(std::move(e), [record = record_, id](core::publish_status status,
                                                     const std::string&) {
      std::lock_guard guard{record->mutex};
      ++record->calls[id];
      record->status[id] = status;
    });
  }

  /// The outcome of `id`, when it came.
  std::optional<core::publish_status> of(const std::string& id) const {
    std::lock_guard guard{record_->mutex};
    auto it = record_->status.find(id);
    return it == record_->status.end() ? std::nullopt : std::optional{it->second};
  }

  /// Waits for the outcome of `id` (nullopt when none came within `limit`).
  std::optional<core::publish_status> wait(const std::string& id,
                                           std::chrono::milliseconds limit = 15s) const {
    test::eventually([&] { return of(id).has_value(); }, limit);
    return of(id);
  }

  /// Ids whose `done` ran more than once.
  std::vector<std::string> repeated() const {
    std::lock_guard guard{record_->mutex};
    std::vector<std::string> out;
    for (auto& [id, n] : record_->calls)
      if (n > 1)
        out.push_back(id);
    return out;
  }

  /// Ids answered `status`.
  std::set<std::string> with(core::publish_status status) const {
    std::lock_guard guard{record_->mutex};
    std::set<std::string> out;
    for (auto& [id, s] : record_->status)
      if (s == status)
        out.insert(id);
    return out;
  }

private:
  struct record {
    std::mutex mutex;
    std::map<std::string, int> calls;
    std::map<std::string, core::publish_status> status;
  };
  std::shared_ptr<record> record_ = std::make_shared<record>();
};

/// Publishes and waits for the outcome; `failed` when none came within `limit`.
inline core::publish_status publish(core::remote_bus& bus, core::event e,
                                    std::chrono::milliseconds limit = 15s) {
  outcomes o;
  auto id = e.id;
  o.publish(bus, std::move(e));
  return o.wait(id, limit).value_or(core::publish_status::failed);
}

/// What one replica's watches were told last, per name, and whether one was told the same
/// state twice in a row.
class owner_view {
public:
  owner_view(core::ownership& owners, const std::vector<std::string>& names) {
    for (auto& name : names)
      handles_.push_back(owners.watch(name, [this, name](bool owned) {
        std::lock_guard guard{mutex_};
        auto [it, fresh] = owned_.try_emplace(name, owned);
        if (!fresh && it->second == owned)
          repeated_ = true;
        it->second = owned;
      }));
  }
  ~owner_view() { handles_.clear(); }
  owner_view(const owner_view&) = delete;
  owner_view& operator=(const owner_view&) = delete;

  /// The names this replica owns.
  std::set<std::string> owned() const {
    std::lock_guard guard{mutex_};
    std::set<std::string> out;
    for (auto& [name, owned] : owned_)
      if (owned)
        out.insert(name);
    return out;
  }

  /// A watch was told the state it already had.
  bool repeated() const {
    std::lock_guard guard{mutex_};
    return repeated_;
  }

private:
  mutable std::mutex mutex_;
  std::map<std::string, bool> owned_;
  bool repeated_ = false;
  std::vector<std::shared_ptr<void>> handles_;
};

} // namespace ganglion::test::bus_conformance
