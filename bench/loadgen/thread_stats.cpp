#include "thread_stats.hpp"

namespace ganglion::loadgen {

void counters::add(const counters& o) noexcept {
  ok += o.ok;
  client_error += o.client_error;
  server_error += o.server_error;
  saturated += o.saturated;
  other += o.other;
  errors += o.errors;
  timeouts += o.timeouts;
  sent += o.sent;
  backlog_max = std::max(backlog_max, o.backlog_max);
  unsent += o.unsent;
}

void thread_stats::on_done(const ticket& t, outcome result, std::int64_t done_ns) noexcept {
  bump(finished_);
  if (!t.measured)
    return;
  switch (result) {
  case outcome::ok:
    bump(ok_);
    latency_.record(done_ns - t.start_ns);
    break;
  case outcome::client_error:
    bump(client_error_);
    break;
  case outcome::saturated:
    bump(saturated_);
    bump(server_error_);
    break;
  case outcome::server_error:
    bump(server_error_);
    break;
  case outcome::other:
    bump(other_);
    break;
  case outcome::timeout:
    bump(timeouts_);
    bump(errors_);
    break;
  case outcome::error:
    bump(errors_);
    break;
  }
}

void thread_stats::on_connect_error(bool measured) noexcept {
  if (measured)
    bump(errors_);
}

void thread_stats::on_backlog(std::uint64_t n) noexcept {
  if (n > backlog_max_.load(std::memory_order_relaxed))
    backlog_max_.store(n, std::memory_order_relaxed);
}

counters thread_stats::snapshot() const noexcept {
  auto get = [](const counter& c) { return c.load(std::memory_order_relaxed); };
  counters c;
  c.ok = get(ok_);
  c.client_error = get(client_error_);
  c.server_error = get(server_error_);
  c.saturated = get(saturated_);
  c.other = get(other_);
  c.errors = get(errors_);
  c.timeouts = get(timeouts_);
  c.sent = get(sent_);
  c.backlog_max = get(backlog_max_);
  c.unsent = get(unsent_);
  return c;
}

} // namespace ganglion::loadgen
