#include "script/jq_watchdog.hpp"

#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

namespace ganglion::dsl::jq {

namespace {

struct watched {
  jq_state* state;
  watchdog::clock::time_point deadline;
  bool halted = false;
};

} // namespace

struct watchdog::impl {
  std::mutex mutex;
  std::condition_variable changed;
  std::map<std::uint64_t, watched> entries;
  std::uint64_t next_ticket = 0;
  /// When the thread wakes next on its own: a later deadline needs no wake-up.
  clock::time_point wake_at = clock::time_point::max();

  [[noreturn]] void run() {
    std::unique_lock lock{mutex};
    for (;;) {
      auto next = clock::time_point::max();
      auto now = clock::now();
      for (auto& [ticket, entry] : entries) {
        if (entry.halted)
          continue;
        if (entry.deadline <= now) {
          // The program may have called `halt` itself in the meantime; jq_halt must not run
          // twice on one state. The window between this check and jq_halt is a few
          // instructions of the program, and only a program that halts itself meets it.
          // Both values are invalid, which own no memory: jq 1.6's jq_reset frees them
          // without clearing them, so a string would be freed again at the next reset.
          if (!jq_halted(entry.state))
            jq_halt(entry.state, jv_invalid(), jv_invalid());
          entry.halted = true;
        } else {
          next = std::min(next, entry.deadline);
        }
      }
      wake_at = next;
      if (next == clock::time_point::max())
        changed.wait(lock);
      else
        changed.wait_until(lock, next);
    }
  }
};

watchdog::watchdog() : impl_(new impl) {
  std::thread([state = impl_] { state->run(); }).detach();
}

watchdog& watchdog::instance() {
  // Never destroyed: its thread runs for the life of the process.
  static auto* the = new watchdog;
  return *the;
}

std::uint64_t watchdog::watch(jq_state* state, clock::time_point deadline) {
  std::lock_guard guard{impl_->mutex};
  auto ticket = ++impl_->next_ticket;
  impl_->entries.emplace(ticket, watched{state, deadline});
  if (deadline < impl_->wake_at) {
    impl_->wake_at = deadline;
    impl_->changed.notify_one();
  }
  return ticket;
}

bool watchdog::release(std::uint64_t ticket) {
  std::lock_guard guard{impl_->mutex};
  auto it = impl_->entries.find(ticket);
  if (it == impl_->entries.end())
    return false;
  bool halted = it->second.halted;
  impl_->entries.erase(it);
  return halted;
}

} // namespace ganglion::dsl::jq
