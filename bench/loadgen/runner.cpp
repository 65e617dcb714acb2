#include "runner.hpp"

#include <thread>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/post.hpp>

#include "clock.hpp"
#include "progress.hpp"
#include "scheduler.hpp"

namespace ganglion::loadgen {

namespace asio = boost::asio;
using namespace std::chrono_literals;

namespace {

constexpr auto connect_wait = 2s;
constexpr auto poll_period = 10ms;

std::int64_t seconds_to_ns(double s) {
  return static_cast<std::int64_t>(s * 1e9);
}

/// One io thread with its connections.
struct worker {
  worker(const driver_factory& make_driver, std::size_t connections,
         std::atomic<std::uint64_t>& next_seq, seq_table* table)
    : guard(asio::make_work_guard(io)), transport(make_driver(io, connections)),
      sched(io, *transport, stats, next_seq, table) {}

  asio::io_context io{1};
  asio::executor_work_guard<asio::io_context::executor_type> guard;
  thread_stats stats;
  std::unique_ptr<driver> transport;
  scheduler sched;
  std::thread thread;
};

std::size_t connected(const std::vector<std::unique_ptr<worker>>& workers) {
  std::size_t n = 0;
  for (const auto& w : workers)
    n += w->sched.connected();
  return n;
}

bool all_finished(const std::vector<std::unique_ptr<worker>>& workers) {
  for (const auto& w : workers)
    if (!w->sched.finished())
      return false;
  return true;
}

/// Waits for the connections, then hands each scheduler its share of the plan; the start time.
std::int64_t begin_all(const run_plan& plan, std::vector<std::unique_ptr<worker>>& workers) {
  auto give_up = now_ns() + std::chrono::nanoseconds(connect_wait).count();
  while (connected(workers) < plan.connections && now_ns() < give_up)
    std::this_thread::sleep_for(1ms);
  auto start = now_ns();
  for (std::size_t i = 0; i < workers.size(); ++i) {
    schedule s;
    s.start_ns = start;
    s.warmup_end_ns = start + seconds_to_ns(plan.warmup_s);
    s.end_ns = s.warmup_end_ns + seconds_to_ns(plan.duration_s);
    s.last_start_ns = s.end_ns + seconds_to_ns(plan.timeout_s);
    s.rate = plan.rate / static_cast<double>(workers.size());
    s.offset_ns = plan.rate > 0 ? static_cast<double>(i) * 1e9 / plan.rate : 0;
    asio::post(workers[i]->io, [w = workers[i].get(), s] { w->sched.begin(s); });
  }
  return start;
}

/// Prints the progress line once per second until every scheduler finished or `deadline_ns`.
void watch(const run_plan& plan, std::vector<std::unique_ptr<worker>>& workers,
           std::int64_t start, std::int64_t deadline_ns) {
  progress_line line(plan.progress);
  histogram previous;
  std::uint64_t previous_finished = 0;
  auto last = start;
  while (!all_finished(workers) && now_ns() < deadline_ns) {
    std::this_thread::sleep_for(poll_period);
    auto now = now_ns();
    if (now - last < 1'000'000'000)
      continue;
    histogram merged;
    counters totals;
    std::uint64_t finished = 0;
    for (const auto& w : workers) {
      merged.merge(w->stats.latency());
      totals.add(w->stats.snapshot());
      finished += w->stats.finished();
    }
    histogram interval = merged;
    interval.subtract(previous);
    auto rate = static_cast<double>(finished - previous_finished) * 1e9 /
                static_cast<double>(now - last);
    line.print(static_cast<double>(now - start) / 1e9, rate, totals.ok, totals.errors, interval);
    previous = merged;
    previous_finished = finished;
    last = now;
  }
  line.finish();
}

} // namespace

run_results run_load(const run_plan& plan, const driver_factory& make_driver, seq_table* table) {
  std::atomic<std::uint64_t> next_seq{0};
  std::vector<std::unique_ptr<worker>> workers;
  for (std::size_t i = 0; i < plan.threads; ++i) {
    auto share = plan.connections / plan.threads + (i < plan.connections % plan.threads ? 1 : 0);
    workers.push_back(std::make_unique<worker>(make_driver, share, next_seq, table));
  }
  for (auto& w : workers) {
    asio::post(w->io, [w = w.get()] { w->sched.start(); });
    w->thread = std::thread([w = w.get()] { w->io.run(); });
  }
  auto start = begin_all(plan, workers);
  auto deadline =
    start + seconds_to_ns(plan.warmup_s + plan.duration_s + 2 * plan.timeout_s + 1);
  watch(plan, workers, start, deadline);
  for (auto& w : workers) {
    w->io.stop();
    w->thread.join();
    w->sched.settle();
  }

  run_results r;
  r.connections = plan.connections;
  r.threads = plan.threads;
  r.duration_s = plan.duration_s;
  r.warmup_s = plan.warmup_s;
  r.target_rate = plan.rate;
  for (const auto& w : workers) {
    r.requests.add(w->stats.snapshot());
    r.latency.merge(w->stats.latency());
    r.connects += w->transport->stats().connects;
  }
  return r;
}

e2e_results drain_sink(sink& s, const seq_table& table, std::uint64_t ok, double drain_s) {
  auto start = now_ns();
  auto give_up = start + seconds_to_ns(drain_s);
  while (table.completed() < ok && now_ns() < give_up)
    std::this_thread::sleep_for(1ms);
  e2e_results e;
  e.drain_s = static_cast<double>(now_ns() - start) / 1e9;
  s.stop();
  e.counts = s.counts();
  e.missing = table.missing();
  return e;
}

} // namespace ganglion::loadgen
