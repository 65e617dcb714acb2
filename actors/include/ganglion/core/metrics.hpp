#pragma once

#include <atomic>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace ganglion::core {

/// Label pairs of one metric series, e.g. {{"source","webhook"},{"event","example"}}.
using labels = std::vector<std::pair<std::string, std::string>>;

/// A monotonically increasing counter; lock-free to increment.
class counter {
public:
  /// Adds `n`.
  void inc(std::uint64_t n = 1) noexcept { value_.fetch_add(n, std::memory_order_relaxed); }
  /// The current value.
  std::uint64_t value() const noexcept { return value_.load(std::memory_order_relaxed); }

private:
  std::atomic<std::uint64_t> value_{0};
};

/// A histogram with fixed upper bounds (seconds); lock-free to observe.
class histogram {
public:
  /// `bounds` ascending; an implicit +Inf bucket follows.
  explicit histogram(std::vector<double> bounds);
  /// Records one observation.
  void observe(double value) noexcept;
  /// Bucket bounds.
  const std::vector<double>& bounds() const noexcept { return bounds_; }
  /// Cumulative count of observations <= bounds()[i] (i == bounds().size() is +Inf).
  std::uint64_t cumulative(std::size_t i) const noexcept;
  /// Sum of all observations.
  double sum() const noexcept;
  /// Number of observations.
  std::uint64_t count() const noexcept;

private:
  std::vector<double> bounds_;
  std::deque<std::atomic<std::uint64_t>> buckets_;
  std::atomic<std::uint64_t> sum_micros_{0};
};

/// The process's metric families, rendered in Prometheus text format. Registration takes a
/// lock; the returned references stay valid for the registry's lifetime.
class metrics_registry {
public:
  /// The counter of family `name` with `series` labels, created on first use.
  counter& get_counter(const std::string& name, const std::string& help, const labels& series);
  /// The histogram of family `name` with `series` labels, created on first use.
  histogram& get_histogram(const std::string& name, const std::string& help, const labels& series,
                           const std::vector<double>& bounds);
  /// Gauge `name` with `series` labels, whose value `read` returns when rendered (called under
  /// the registry's lock: it must be cheap and must not use the registry). Replaces an earlier
  /// `read` of the same series.
  void set_gauge(const std::string& name, const std::string& help, const labels& series,
                 std::function<std::int64_t()> read);
  /// Prometheus text exposition format 0.0.4.
  std::string render() const;
  /// Leaves every series labelled `label="value"` out of render() (a sensor removed by a
  /// reload), until a series with that label is asked for again; references stay valid.
  void hide(const std::string& label, const std::string& value);

private:
  struct family {
    std::string help;
    enum class kind { counter, histogram, gauge } type = kind::counter;
    std::map<labels, std::size_t> index;
  };
  mutable std::mutex mutex_;
  std::map<std::string, family> families_;
  std::deque<counter> counters_;
  std::deque<histogram> histograms_;
  std::deque<std::function<std::int64_t()>> gauges_;
  std::set<std::pair<std::string, std::string>> hidden_;
};

/// Default latency buckets in seconds (1 ms … 60 s).
const std::vector<double>& latency_buckets();

} // namespace ganglion::core
