#include "seq_table.hpp"

namespace ganglion::loadgen {

namespace {

constexpr std::uint32_t sent = 1;
constexpr std::uint32_t measured_flag = 2;
constexpr std::uint32_t answered = 4;
constexpr std::uint32_t arrived = 8;

} // namespace

seq_table::seq_table(std::uint64_t capacity)
  : chunk_count_((capacity + chunk_size - 1) / chunk_size),
    chunks_(new std::atomic<entry*>[chunk_count_]) {
  for (std::size_t i = 0; i < chunk_count_; ++i)
    chunks_[i].store(nullptr, std::memory_order_relaxed);
}

seq_table::~seq_table() {
  for (std::size_t i = 0; i < chunk_count_; ++i)
    delete[] chunks_[i].load(std::memory_order_relaxed);
}

seq_table::entry* seq_table::find(std::uint64_t seq) const noexcept {
  auto chunk = seq >> chunk_bits;
  if (chunk >= chunk_count_)
    return nullptr;
  auto* base = chunks_[chunk].load(std::memory_order_acquire);
  return base ? base + (seq & (chunk_size - 1)) : nullptr;
}

seq_table::entry* seq_table::find_or_create(std::uint64_t seq) {
  auto chunk = seq >> chunk_bits;
  if (chunk >= chunk_count_)
    return nullptr;
  auto* base = chunks_[chunk].load(std::memory_order_acquire);
  if (!base) {
    auto* fresh = new entry[chunk_size];
    if (chunks_[chunk].compare_exchange_strong(base, fresh, std::memory_order_acq_rel))
      base = fresh;
    else
      delete[] fresh;
  }
  return base + (seq & (chunk_size - 1));
}

void seq_table::on_send(std::uint64_t seq, std::int64_t start_ns, bool measured) {
  if (auto* e = find_or_create(seq)) {
    e->start_ns.store(start_ns, std::memory_order_relaxed);
    e->flags.store(sent | (measured ? measured_flag : 0), std::memory_order_release);
  }
}

void seq_table::count_pair(std::uint32_t before, std::uint32_t added) noexcept {
  auto other = added == answered ? arrived : answered;
  if ((before & measured_flag) && (before & other) && !(before & added))
    completed_.fetch_add(1, std::memory_order_relaxed);
}

void seq_table::on_answered(std::uint64_t seq) noexcept {
  if (auto* e = find(seq))
    count_pair(e->flags.fetch_or(answered, std::memory_order_acq_rel), answered);
}

arrival seq_table::on_arrival(std::uint64_t seq, std::int64_t now_ns) noexcept {
  auto* e = find(seq);
  if (!e || !(e->flags.load(std::memory_order_acquire) & sent))
    return {arrival_kind::unknown, 0};
  if (!(e->flags.load(std::memory_order_relaxed) & measured_flag))
    return {arrival_kind::warmup, 0};
  if (e->arrivals.fetch_add(1, std::memory_order_relaxed) > 0)
    return {arrival_kind::duplicate, 0};
  count_pair(e->flags.fetch_or(arrived, std::memory_order_acq_rel), arrived);
  return {arrival_kind::first, now_ns - e->start_ns.load(std::memory_order_relaxed)};
}

std::uint64_t seq_table::completed() const noexcept {
  return completed_.load(std::memory_order_relaxed);
}

std::uint64_t seq_table::missing() const noexcept {
  std::uint64_t n = 0;
  for (std::size_t c = 0; c < chunk_count_; ++c) {
    const auto* base = chunks_[c].load(std::memory_order_acquire);
    if (!base)
      continue;
    for (std::uint64_t i = 0; i < chunk_size; ++i) {
      auto f = base[i].flags.load(std::memory_order_relaxed);
      if ((f & measured_flag) && (f & answered) && !(f & arrived))
        ++n;
    }
  }
  return n;
}

} // namespace ganglion::loadgen
