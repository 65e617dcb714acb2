#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "ganglion/core/event.hpp"

namespace ganglion::core {

/// The events one sensor has not finished, by sequence: each is handed to the matching core
/// through a per-sensor handle and is finished once nothing holds that handle any more (no join
/// holds it and no `atLeastOnce` firing that contains it is still executing). The ledgers keep
/// their own record of what finished. Not thread-safe: owned by the sensor actor.
class held_events {
public:
  /// Holds `e`; returns the pointer to give the matching core (the hold lasts while it lives).
  event_ptr hold(const event_ptr& e) {
    auto h = std::make_shared<handle>(handle{e});
    pending_[e->sequence] = h;
    return event_ptr{h, h->original.get()};
  }

  /// True when the event of `sequence` is held.
  bool contains(std::uint64_t sequence) const { return pending_.count(sequence) > 0; }

  /// How many events are held.
  std::size_t size() const noexcept { return pending_.size(); }

  /// The same events without this sensor's handles (the delivered event itself, or a
  /// transformed copy that held on to it): see event_ledger::release.
  void release(std::map<std::string, event_ptr>& events) const {
    for (auto& [dependency, e] : events) {
      auto found = pending_.find(e->sequence);
      if (found == pending_.end())
        continue;
      e = e.get() == found->second->original.get() ? found->second->original
                                                    : std::make_shared<const event>(*e);
    }
  }

  /// Drops the events nothing holds any more, calling `finished(sequence, event)` for each, in
  /// sequence order.
  template <class F>
  void settle(F&& finished) {
    for (auto it = pending_.begin(); it != pending_.end();) {
      if (it->second.use_count() > 1) {
        ++it;
        continue;
      }
      finished(it->first, *it->second->original);
      it = pending_.erase(it);
    }
  }

  /// Calls `f(sequence, event)` for each held event, in sequence order.
  template <class F>
  void for_each(F&& f) const {
    for (const auto& [sequence, h] : pending_)
      f(sequence, *h->original);
  }

private:
  struct handle {
    event_ptr original;
  };

  /// sequence → this sensor's handle of an unfinished event.
  std::map<std::uint64_t, std::shared_ptr<handle>> pending_;
};

} // namespace ganglion::core
