#include "bus_probe.hpp"

#include <algorithm>
#include <charconv>
#include <ctime>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

namespace bus_bench {

std::int64_t now_ns() {
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec;
}

std::string make_body(std::int64_t seq, std::size_t size) {
  auto head = fmt::format(R"({{"seq":{},"ts":"{}","pad":")", seq, now_ns());
  constexpr std::size_t tail = 2; // "}
  auto pad = size > head.size() + tail ? size - head.size() - tail : 0;
  head.append(pad, 'x');
  head += "\"}";
  return head;
}

namespace {

/// The integer after `"key":` (optionally quoted); nullopt when absent or not a number.
std::optional<std::int64_t> field(std::string_view text, std::string_view key) {
  auto at = text.find(key);
  if (at == std::string_view::npos)
    return std::nullopt;
  auto p = at + key.size();
  while (p < text.size() && (text[p] == ' ' || text[p] == '"'))
    ++p;
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data() + p, text.data() + text.size(), value);
  if (ec != std::errc{})
    return std::nullopt;
  return value;
}

double percentile_ms(const std::vector<std::int64_t>& sorted, double q) {
  if (sorted.empty())
    return 0;
  auto i = static_cast<std::size_t>(q * static_cast<double>(sorted.size() - 1) + 0.5);
  return static_cast<double>(sorted[std::min(i, sorted.size() - 1)]) / 1e6;
}

} // namespace

std::optional<stamp> read_stamp(std::string_view payload) {
  auto seq = field(payload, "\"seq\":");
  auto ts = field(payload, "\"ts\":");
  if (!seq || !ts)
    return std::nullopt;
  return stamp{*seq, *ts};
}

tally::tally(std::int64_t count) : count_(count), seen_(static_cast<std::size_t>(count)) {
  latencies_ns_.reserve(static_cast<std::size_t>(count));
}

void tally::start() {
  std::lock_guard guard{mutex_};
  started_ns_ = now_ns();
  last_ns_ = started_ns_;
}

void tally::arrived(std::string_view payload) {
  auto now = now_ns();
  auto s = read_stamp(payload);
  {
    std::lock_guard guard{mutex_};
    if (!s) {
      ++unstamped_;
      return;
    }
    if (s->seq < 0) {
      warm_ = true;
    } else if (s->seq >= count_ || seen_[static_cast<std::size_t>(s->seq)]) {
      ++duplicates_;
      return;
    } else {
      seen_[static_cast<std::size_t>(s->seq)] = true;
      latencies_ns_.push_back(now - s->ts);
      ++received_;
      last_ns_ = now;
    }
  }
  changed_.notify_all();
}

std::int64_t tally::received() const {
  std::lock_guard guard{mutex_};
  return received_;
}

bool tally::warm() const {
  std::lock_guard guard{mutex_};
  return warm_;
}

bool tally::wait_warm(std::chrono::milliseconds timeout) {
  std::unique_lock lock{mutex_};
  return changed_.wait_for(lock, timeout, [this] { return warm_; });
}

bool tally::wait_for(std::int64_t target, std::chrono::milliseconds idle) {
  std::unique_lock lock{mutex_};
  while (received_ < target) {
    auto before = received_;
    if (!changed_.wait_for(lock, idle, [&] { return received_ != before; }))
      return false;
  }
  return true;
}

bool tally::wait_room(std::int64_t sent, std::int64_t window, std::chrono::milliseconds idle) {
  return wait_for(sent - window + 1, idle);
}

bool tally::wait_all(std::chrono::milliseconds idle) { return wait_for(count_, idle); }

void warm_up(tally& t, const settings& s, const std::string& where,
             const std::function<void()>& send) {
  using namespace std::chrono_literals;
  auto deadline = std::chrono::steady_clock::now() + s.warmup;
  while (!t.wait_warm(250ms)) {
    if (std::chrono::steady_clock::now() > deadline)
      throw std::runtime_error(fmt::format("no warm-up event came back on {} within {} s", where,
                                           s.warmup.count() / 1000));
    send();
  }
  std::this_thread::sleep_for(500ms);
}

std::string tally::report(std::string_view mode, std::int64_t send_errors) const {
  std::lock_guard guard{mutex_};
  auto sorted = latencies_ns_;
  std::sort(sorted.begin(), sorted.end());
  double seconds = static_cast<double>(last_ns_ - started_ns_) / 1e9;
  double rate = seconds > 0 ? static_cast<double>(received_) / seconds : 0;
  return fmt::format(
    R"({{"mode":"{}","sent":{},"events":{},"missing":{},"duplicates":{},"unstamped":{},)"
    R"("send_errors":{},"seconds":{:.3f},"events_per_s":{:.0f},"p50_ms":{:.3f},)"
    R"("p90_ms":{:.3f},"p99_ms":{:.3f},"max_ms":{:.3f}}})",
    mode, count_, received_, count_ - received_, duplicates_, unstamped_, send_errors, seconds,
    rate, percentile_ms(sorted, 0.50), percentile_ms(sorted, 0.90), percentile_ms(sorted, 0.99),
    sorted.empty() ? 0.0 : static_cast<double>(sorted.back()) / 1e6);
}

} // namespace bus_bench
