#include "sensor/sensor_ledger.hpp"

#include <unordered_set>

#include <spdlog/spdlog.h>

namespace ganglion::core {

sensor_ledger::sensor_ledger(std::string name, sensor_durability durability)
  : name_(std::move(name)),
    durability_(std::move(durability)),
    store_(durability_.directory, durability_.fsync) {}

void sensor_ledger::recover(dedup_window& dedup,
                            const std::function<void(const event_ptr&)>& deliver) {
  auto snapshot = store_.load_snapshot();
  auto completions = store_.load_completions();
  std::unordered_set<std::uint64_t> finished;
  finished.reserve(completions.size());
  auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::system_clock::now().time_since_epoch())
                  .count();
  auto window = dedup.window().count();
  std::size_t remembered = 0;
  for (const auto& c : completions) {
    finished.insert(c.sequence);
    if (window > 0 && now_ms - c.unix_ms <= window) {
      dedup.remember({c.id_low, c.id_high});
      ++remembered;
    }
  }
  // A sensor without stored state starts with the events published since the engine planned
  // it: a source started with it (a calendar catching up) may publish before it subscribes.
  bool fresh = snapshot.cursor == 0;
  auto fresh_cursor = durability_.fresh_start != 0 ? durability_.fresh_start
                                                   : durability_.log->next_sequence();
  cursor_ = fresh ? fresh_cursor : snapshot.cursor;
  next_ = cursor_;
  std::size_t redelivered = 0;
  auto replay = [&](event&& e) {
    auto sequence = e.sequence;
    if (!finished.count(sequence)) {
      if (auto admitted = admit(std::make_shared<const event>(std::move(e)))) {
        ++redelivered;
        deliver(admitted);
      }
    }
    replayed_until_ = std::max(replayed_until_, sequence);
  };
  for (auto& held : snapshot.held)
    replay(std::move(held.e));
  // What the log holds from the cursor on; the bus delivers what comes after (and again what
  // was read here, which admit() then skips).
  replayed_until_ = std::max(replayed_until_, cursor_ - 1);
  durability_.log->replay(cursor_, [&](event&& e) {
    if (e.sequence > replayed_until_)
      replay(std::move(e));
  });
  next_ = std::max(next_, replayed_until_ + 1);
  if (!fresh || redelivered > 0 || remembered > 0)
    spdlog::info("sensor {}: recovered from {}: cursor {}, {} unfinished event(s) delivered "
                 "again, {} event id(s) remembered for deduplication",
                 name_, durability_.directory, cursor_, redelivered, remembered);
  generation_start_ = std::chrono::steady_clock::now();
  generation_span_ = std::max<std::chrono::milliseconds>(dedup.window(), std::chrono::seconds(10));
  commit(true);
}

event_ptr sensor_ledger::admit(const event_ptr& e) {
  if (e->sequence != 0 && e->sequence <= replayed_until_)
    return nullptr;
  next_ = std::max(next_, e->sequence + 1);
  return held_.hold(e);
}

void sensor_ledger::release(std::map<std::string, event_ptr>& events) const {
  held_.release(events);
}

std::size_t sensor_ledger::commit(bool force_snapshot) {
  auto now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                  std::chrono::system_clock::now().time_since_epoch())
                  .count();
  held_.settle([&](std::uint64_t sequence, const event& e) {
    auto f = dedup_window::fingerprint_of(e.id);
    finished_.push_back({sequence, f.low, f.high, now_ms});
  });
  auto finished = finished_.size() - unjournaled_;
  // A full disk (or another write error) must not stop the sensor: what finished stays in
  // memory and is journaled by a later commit; a crash meanwhile delivers it again.
  try {
    if (!finished_.empty()) {
      store_.append_completions(finished_);
      generation_entries_ += finished_.size();
      finished_.clear();
    }
    unjournaled_ = 0;
    auto now = std::chrono::steady_clock::now();
    if (force_snapshot || now - last_snapshot_ >= durability_.snapshot_interval)
      save_snapshot();
    if (store_failing_) {
      store_failing_ = false;
      spdlog::info("sensor {}: its progress is recorded again", name_);
    }
  } catch (const sensor_store_error& ex) {
    unjournaled_ = finished_.size();
    if (!store_failing_)
      spdlog::error("sensor {}: cannot record its progress ({}); retrying, a restart meanwhile "
                    "delivers again what finished since",
                    name_, ex.what());
    store_failing_ = true;
  }
  return finished;
}

void sensor_ledger::save_snapshot() {
  sensor_snapshot snapshot;
  snapshot.cursor = next_;
  snapshot.held.reserve(held_.size());
  held_.for_each([&](std::uint64_t, const event& e) { snapshot.held.push_back({{}, {}, e}); });
  store_.save_snapshot(snapshot);
  cursor_ = next_;
  last_snapshot_ = std::chrono::steady_clock::now();
  durability_.cursors->commit(name_, cursor_);
  // Journal entries below the cursor only serve the dedup window: keep two generations that
  // span it.
  if (last_snapshot_ - generation_start_ >= generation_span_
      || generation_entries_ >= generation_capacity_) {
    store_.rotate_completions();
    generation_start_ = last_snapshot_;
    generation_entries_ = 0;
  }
}

} // namespace ganglion::core
