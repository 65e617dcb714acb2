#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>

namespace ganglion::loadgen {

/// What the sink learnt from one arrival.
enum class arrival_kind {
  first,     ///< the first arrival of a measured request: latency is valid
  duplicate, ///< a measured request that had already arrived
  warmup,    ///< a request sent during the warmup: not counted
  unknown,   ///< no request was sent with this seq
};

/// The outcome of seq_table::on_arrival.
struct arrival {
  arrival_kind kind = arrival_kind::unknown;
  std::int64_t latency_ns = 0; ///< arrival − the request's start time, for `first`
};

/// Per-request state shared by the senders and the sink, indexed by seq: a chunked array
/// (64 Ki entries per chunk, allocated on first use) of atomics, so neither side takes a lock or
/// looks anything up in a map.
class seq_table {
public:
  /// Room for `capacity` seqs (rounded up to whole chunks); later seqs are not tracked.
  explicit seq_table(std::uint64_t capacity = std::uint64_t{1} << 28);
  /// Frees the chunks.
  ~seq_table();
  seq_table(const seq_table&) = delete;
  seq_table& operator=(const seq_table&) = delete;

  /// A sender is about to send `seq`; its latency counts from `start_ns`. Warmup requests
  /// (`measured` false) are remembered so that their arrivals are ignored.
  void on_send(std::uint64_t seq, std::int64_t start_ns, bool measured);
  /// The request `seq` was answered with 2xx.
  void on_answered(std::uint64_t seq) noexcept;
  /// The sink received a body carrying `seq` at `now_ns`.
  arrival on_arrival(std::uint64_t seq, std::int64_t now_ns) noexcept;

  /// Measured requests both answered 2xx and arrived.
  std::uint64_t completed() const noexcept;
  /// Measured requests answered 2xx that have not arrived.
  std::uint64_t missing() const noexcept;

private:
  struct entry {
    std::atomic<std::int64_t> start_ns{0};
    std::atomic<std::uint32_t> flags{0};
    std::atomic<std::uint32_t> arrivals{0};
  };
  static constexpr int chunk_bits = 16;
  static constexpr std::uint64_t chunk_size = std::uint64_t{1} << chunk_bits;

  entry* find(std::uint64_t seq) const noexcept;
  entry* find_or_create(std::uint64_t seq);
  void count_pair(std::uint32_t flags_before, std::uint32_t added) noexcept;

  std::size_t chunk_count_;
  std::unique_ptr<std::atomic<entry*>[]> chunks_;
  std::atomic<std::uint64_t> completed_{0};
};

} // namespace ganglion::loadgen
