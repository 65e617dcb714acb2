#include "scheduler.hpp"

#include <cmath>

#include "clock.hpp"

namespace ganglion::loadgen {

using error_code = boost::system::error_code;

scheduler::scheduler(boost::asio::io_context& io, driver& d, thread_stats& stats,
                     std::atomic<std::uint64_t>& next_seq, seq_table* table)
  : driver_(d), stats_(stats), next_seq_(next_seq), table_(table), timer_(io),
    end_timer_(io), seen_(d.slots(), false) {
  idle_.reserve(d.slots());
}

void scheduler::start() {
  driver_.start(*this);
}

void scheduler::begin(const schedule& plan) {
  plan_ = plan;
  begun_ = true;
  if (open_loop()) {
    auto span_ns = static_cast<double>(plan_.end_ns - plan_.start_ns) - plan_.offset_ns;
    slot_total_ = span_ns <= 0 ? 0
                               : static_cast<std::uint64_t>(std::ceil(span_ns * plan_.rate / 1e9));
    while (slot_total_ > 0 && due_time(slot_total_ - 1) >= plan_.end_ns)
      --slot_total_;
  }
  end_timer_.expires_at(time_point_of(open_loop() ? plan_.last_start_ns : plan_.end_ns));
  end_timer_.async_wait([this](const error_code& ec) {
    if (!ec)
      check_finished();
  });
  if (open_loop()) {
    tick();
    return;
  }
  auto ready = std::move(idle_);
  idle_.clear();
  for (auto slot : ready)
    on_ready(slot);
}

std::int64_t scheduler::due_time(std::uint64_t k) const noexcept {
  return plan_.start_ns +
         static_cast<std::int64_t>(plan_.offset_ns + static_cast<double>(k) * 1e9 / plan_.rate);
}

std::uint64_t scheduler::due_count(std::int64_t now) const noexcept {
  auto elapsed = static_cast<double>(now - plan_.start_ns) - plan_.offset_ns;
  if (elapsed < 0)
    return 0;
  auto n = static_cast<std::uint64_t>(std::floor(elapsed * plan_.rate / 1e9)) + 1;
  return std::min(n, slot_total_);
}

void scheduler::issue(std::size_t slot, std::int64_t start_ns) {
  ticket t;
  t.seq = next_seq_.fetch_add(1, std::memory_order_relaxed);
  t.start_ns = start_ns;
  t.measured = start_ns >= plan_.warmup_end_ns;
  if (t.measured)
    stats_.on_sent();
  if (table_)
    table_->on_send(t.seq, start_ns, t.measured);
  ++in_flight_;
  driver_.send_next(slot, t);
}

void scheduler::on_ready(std::size_t slot) {
  if (!seen_[slot]) {
    seen_[slot] = true;
    connected_.fetch_add(1, std::memory_order_relaxed);
  }
  if (!begun_) {
    idle_.push_back(slot);
    return;
  }
  auto now = now_ns();
  if (open_loop()) {
    if (now < plan_.last_start_ns && next_slot_ < due_count(now)) {
      issue(slot, due_time(next_slot_++));
      return;
    }
    idle_.push_back(slot);
    check_finished();
    return;
  }
  if (now >= plan_.end_ns) {
    idle_.push_back(slot);
    check_finished();
    return;
  }
  issue(slot, now);
}

void scheduler::on_done(std::size_t, const ticket& t, outcome result, std::int64_t done_ns) {
  --in_flight_;
  stats_.on_done(t, result, done_ns);
  if (table_ && result == outcome::ok)
    table_->on_answered(t.seq);
  check_finished();
}

void scheduler::on_connect_error() {
  stats_.on_connect_error(begun_ && now_ns() >= plan_.warmup_end_ns);
  check_finished();
}

void scheduler::tick() {
  auto now = now_ns();
  auto due = due_count(now);
  while (next_slot_ < due && !idle_.empty()) {
    auto slot = idle_.back();
    idle_.pop_back();
    issue(slot, due_time(next_slot_++));
  }
  stats_.on_backlog(due - next_slot_);
  if (due >= slot_total_) {
    check_finished();
    return;
  }
  timer_.expires_at(time_point_of(due_time(due)));
  timer_.async_wait([this](const error_code& ec) {
    if (!ec)
      tick();
  });
}

void scheduler::check_finished() {
  if (!begun_ || finished_.load(std::memory_order_relaxed) || in_flight_ > 0)
    return;
  auto now = now_ns();
  if (open_loop() ? (next_slot_ < slot_total_ && now < plan_.last_start_ns) : now < plan_.end_ns)
    return;
  timer_.cancel();
  end_timer_.cancel();
  driver_.stop();
  finished_.store(true, std::memory_order_release);
}

void scheduler::settle() noexcept {
  if (open_loop())
    stats_.set_unsent(slot_total_ - next_slot_);
}

} // namespace ganglion::loadgen
