#include "sensor/remote_ledger.hpp"

#include <cstring>
#include <vector>

#include <spdlog/spdlog.h>

#include "ganglion/core/event_codec.hpp"

namespace ganglion::core {

namespace {

// The stored value: "GRL1", then per event a u64 sequence, a u32 length and the encoded event
// (event_codec), all little-endian.
constexpr char magic[] = "GRL1";

template <class T>
void put(std::string& out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

template <class T>
bool take(std::string_view& in, T& value) {
  if (in.size() < sizeof(T))
    return false;
  std::memcpy(&value, in.data(), sizeof(T));
  in.remove_prefix(sizeof(T));
  return true;
}

std::vector<event> decode_state(const std::string& name, std::string_view in) {
  std::vector<event> out;
  if (in.empty())
    return out;
  if (in.substr(0, 4) != std::string_view{magic, 4})
    throw std::runtime_error("the stored state of sensor " + name + " is not in a known format");
  in.remove_prefix(4);
  while (!in.empty()) {
    std::uint64_t sequence = 0;
    std::uint32_t length = 0;
    event e;
    if (!take(in, sequence) || !take(in, length) || in.size() < length
        || !decode_event(in.substr(0, length), e))
      throw std::runtime_error("the stored state of sensor " + name + " is truncated or corrupt");
    in.remove_prefix(length);
    e.sequence = sequence;
    out.push_back(std::move(e));
  }
  return out;
}

} // namespace

remote_ledger::remote_ledger(std::string name, std::shared_ptr<remote_bus> bus,
                             std::chrono::milliseconds interval)
  : name_(std::move(name)), key_(key_of(name_)), bus_(std::move(bus)), interval_(interval) {}

std::string remote_ledger::key_of(const std::string& sensor) {
  return "sensor." + sensor;
}

void remote_ledger::attach(std::shared_ptr<remote_subscription> subscription) {
  subscription_ = std::move(subscription);
}

void remote_ledger::recover(dedup_window&,
                            const std::function<void(const event_ptr&)>& deliver) {
  auto value = bus_->state().load(key_);
  if (!value)
    return;
  auto events = decode_state(name_, *value);
  for (auto& e : events) {
    auto sequence = e.sequence;
    auto admitted = admit(std::make_shared<const event>(std::move(e)));
    recovered_.insert(sequence);
    stored_.insert(sequence);
    if (admitted)
      deliver(admitted);
  }
  spdlog::info("sensor {}: took over {} unfinished event(s) from the bus's state store", name_,
               events.size());
  last_store_ = std::chrono::steady_clock::now();
}

event_ptr remote_ledger::admit(const event_ptr& e) {
  if (held_.contains(e->sequence))
    return nullptr;
  if (recovered_.count(e->sequence)) {
    // The store held it when this replica took over; it is processed from there.
    if (subscription_)
      subscription_->acknowledge({e->sequence});
    return nullptr;
  }
  return held_.hold(e);
}

void remote_ledger::release(std::map<std::string, event_ptr>& events) const {
  held_.release(events);
}

std::size_t remote_ledger::commit(bool force_snapshot) {
  if (store_failed_->exchange(false)) {
    // What the failed store would have covered was never acknowledged: store it again.
    stored_.clear();
    dirty_ = true;
  }
  std::vector<std::uint64_t> finished;
  held_.settle([&](std::uint64_t sequence, const event&) {
    if (stored_.erase(sequence))
      dirty_ = true; // the store still holds it: the next store drops it
    else
      finished.push_back(sequence);
  });
  if (!finished.empty() && subscription_)
    subscription_->acknowledge(finished);
  auto now = std::chrono::steady_clock::now();
  bool changed = dirty_ || held_.size() != stored_.size();
  if (changed && (force_snapshot || now - last_store_ >= interval_))
    store_unfinished();
  return finished.size();
}

void remote_ledger::store_unfinished() {
  std::string value;
  std::vector<std::uint64_t> newly;
  std::set<std::uint64_t> included;
  auto limit = bus_->state().max_value_bytes();
  if (held_.size() > 0)
    value.append(magic, 4);
  std::size_t left_out = 0;
  held_.for_each([&](std::uint64_t sequence, const event& e) {
    auto size = encoded_size(e);
    if (value.size() + 12 + size > limit) {
      // Too much to store at once: the rest stays unacknowledged; the bus redelivers it later
      // and admit() skips it while it is still pending here.
      ++left_out;
      return;
    }
    put<std::uint64_t>(value, sequence);
    put<std::uint32_t>(value, static_cast<std::uint32_t>(size));
    encode_event(e, value);
    included.insert(sequence);
    if (!stored_.count(sequence))
      newly.push_back(sequence);
  });
  if (left_out > 0)
    spdlog::warn("sensor {}: {} unfinished event(s) do not fit in one state value of {} bytes; "
                 "they stay unacknowledged",
                 name_, left_out, limit);
  stored_ = std::move(included);
  dirty_ = false;
  last_store_ = std::chrono::steady_clock::now();
  std::weak_ptr<remote_subscription> weak = subscription_;
  bus_->state().store(key_, std::move(value),
                      [weak, newly = std::move(newly),
                       failed = store_failed_](const std::string& error) {
                        if (!error.empty()) {
                          // The store logs the failure once; the next commit stores again.
                          failed->store(true);
                          return;
                        }
                        if (auto subscription = weak.lock(); subscription && !newly.empty())
                          subscription->acknowledge(newly);
                      });
}

} // namespace ganglion::core
