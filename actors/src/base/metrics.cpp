#include "ganglion/core/metrics.hpp"

#include <cmath>

#include <fmt/format.h>

namespace ganglion::core {

namespace {

std::string escape_label(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '\\' || c == '"')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out;
}

std::string render_labels(const labels& series, const std::string& extra = {}) {
  if (series.empty() && extra.empty())
    return {};
  std::string out = "{";
  for (const auto& [k, v] : series) {
    if (out.size() > 1)
      out += ',';
    out += k + "=\"" + escape_label(v) + "\"";
  }
  if (!extra.empty()) {
    if (out.size() > 1)
      out += ',';
    out += extra;
  }
  return out + "}";
}

std::string format_bound(double b) {
  return fmt::format("{}", b);
}

bool hidden_by(const labels& series, const std::set<std::pair<std::string, std::string>>& hidden) {
  for (const auto& pair : series)
    if (hidden.count(pair))
      return true;
  return false;
}

void reveal(const labels& series, std::set<std::pair<std::string, std::string>>& hidden) {
  for (const auto& pair : series)
    hidden.erase(pair);
}

} // namespace

histogram::histogram(std::vector<double> bounds)
  : bounds_(std::move(bounds)), buckets_(bounds_.size() + 1) {}

void histogram::observe(double value) noexcept {
  std::size_t i = 0;
  while (i < bounds_.size() && value > bounds_[i])
    ++i;
  buckets_[i].fetch_add(1, std::memory_order_relaxed);
  sum_micros_.fetch_add(static_cast<std::uint64_t>(std::llround(value * 1e6)),
                        std::memory_order_relaxed);
}

std::uint64_t histogram::cumulative(std::size_t i) const noexcept {
  std::uint64_t total = 0;
  for (std::size_t j = 0; j <= i && j < buckets_.size(); ++j)
    total += buckets_[j].load(std::memory_order_relaxed);
  return total;
}

double histogram::sum() const noexcept {
  return static_cast<double>(sum_micros_.load(std::memory_order_relaxed)) / 1e6;
}

std::uint64_t histogram::count() const noexcept {
  return cumulative(bounds_.size());
}

counter& metrics_registry::get_counter(const std::string& name, const std::string& help,
                                       const labels& series) {
  std::lock_guard guard{mutex_};
  if (!hidden_.empty())
    reveal(series, hidden_);
  auto& fam = families_[name];
  fam.help = help;
  auto [it, added] = fam.index.try_emplace(series, counters_.size());
  if (added)
    counters_.emplace_back();
  return counters_[it->second];
}

histogram& metrics_registry::get_histogram(const std::string& name, const std::string& help,
                                           const labels& series,
                                           const std::vector<double>& bounds) {
  std::lock_guard guard{mutex_};
  if (!hidden_.empty())
    reveal(series, hidden_);
  auto& fam = families_[name];
  fam.help = help;
  fam.type = family::kind::histogram;
  auto [it, added] = fam.index.try_emplace(series, histograms_.size());
  if (added)
    histograms_.emplace_back(bounds);
  return histograms_[it->second];
}

void metrics_registry::set_gauge(const std::string& name, const std::string& help,
                                 const labels& series, std::function<std::int64_t()> read) {
  std::lock_guard guard{mutex_};
  if (!hidden_.empty())
    reveal(series, hidden_);
  auto& fam = families_[name];
  fam.help = help;
  fam.type = family::kind::gauge;
  auto [it, added] = fam.index.try_emplace(series, gauges_.size());
  if (added)
    gauges_.emplace_back();
  gauges_[it->second] = std::move(read);
}

void metrics_registry::hide(const std::string& label, const std::string& value) {
  std::lock_guard guard{mutex_};
  hidden_.emplace(label, value);
}

std::string metrics_registry::render() const {
  std::lock_guard guard{mutex_};
  std::string out;
  using kind = family::kind;
  for (const auto& [name, fam] : families_) {
    auto type = fam.type == kind::histogram ? "histogram"
                : fam.type == kind::gauge   ? "gauge"
                                            : "counter";
    out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, fam.help, name, type);
    for (const auto& [series, index] : fam.index) {
      if (!hidden_.empty() && hidden_by(series, hidden_))
        continue;
      if (fam.type == kind::counter) {
        out += fmt::format("{}{} {}\n", name, render_labels(series), counters_[index].value());
        continue;
      }
      if (fam.type == kind::gauge) {
        out += fmt::format("{}{} {}\n", name, render_labels(series), gauges_[index]());
        continue;
      }
      const auto& h = histograms_[index];
      for (std::size_t i = 0; i <= h.bounds().size(); ++i) {
        auto le = i < h.bounds().size() ? format_bound(h.bounds()[i]) : std::string{"+Inf"};
        out += fmt::format("{}_bucket{} {}\n", name, render_labels(series, "le=\"" + le + "\""),
                           h.cumulative(i));
      }
      out += fmt::format("{}_sum{} {}\n", name, render_labels(series), h.sum());
      out += fmt::format("{}_count{} {}\n", name, render_labels(series), h.count());
    }
  }
  return out;
}

const std::vector<double>& latency_buckets() {
  static const std::vector<double> buckets{0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1,
                                           0.25,  0.5,    1,     2.5,  5,     10,   30, 60};
  return buckets;
}

} // namespace ganglion::core
