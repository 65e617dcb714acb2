#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <boost/unordered/unordered_flat_set.hpp>

namespace ganglion::core {

/// Remembers event ids so a redelivered event is processed once. An id is remembered for at
/// least `window` and at most twice that: ids live in two generations of 128-bit fingerprints
/// (XXH3), and the older generation is dropped whenever the newer one has spanned `window` or
/// holds half the capacity. Recording allocates only when a generation's table grows.
class dedup_window {
public:
  using clock = std::chrono::steady_clock;

  /// `window` 0 remembers nothing; `capacity` bounds the ids remembered at once.
  dedup_window(std::chrono::milliseconds window, std::size_t capacity);

  /// True when `id` was recorded within the window; otherwise records it. Empty ids are never
  /// duplicates.
  bool seen_before(std::string_view id, clock::time_point now);

  /// Ids remembered now.
  std::size_t size() const noexcept { return current_.size() + previous_.size(); }

  /// The 128-bit fingerprint an id is remembered by.
  struct fingerprint {
    std::uint64_t low = 0;
    std::uint64_t high = 0;
    bool operator==(const fingerprint&) const = default;
  };

  /// The fingerprint of `id`.
  static fingerprint fingerprint_of(std::string_view id) noexcept;

  /// Remembers an id processed before a restart (it counts as seen from now on).
  void remember(fingerprint f);

  /// The window (0: deduplication is off).
  std::chrono::milliseconds window() const noexcept { return window_; }

private:
  struct fingerprint_hash {
    std::size_t operator()(const fingerprint& f) const noexcept { return f.low; }
  };
  using generation = boost::unordered_flat_set<fingerprint, fingerprint_hash>;

  void rotate(clock::time_point now);

  std::chrono::milliseconds window_;
  std::size_t generation_capacity_;
  generation current_;
  generation previous_;
  clock::time_point current_start_{};
};

} // namespace ganglion::core
