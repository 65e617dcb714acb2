#include "clock/ticker.hpp"

#include <pthread.h>

namespace ganglion::calendar::detail {

ticker::~ticker() {
  {
    std::lock_guard guard{mutex_};
    stopping_ = true;
  }
  changed_.notify_all();
  if (thread_.joinable())
    thread_.join();
}

std::uint64_t ticker::at(clock::time_point when, task fn) {
  std::uint64_t id;
  bool earliest;
  {
    std::lock_guard guard{mutex_};
    if (!thread_.joinable()) {
      thread_ = std::thread{[this] { run(); }};
      pthread_setname_np(thread_.native_handle(), "calendar-clock");
    }
    id = ++next_id_;
    tasks_.emplace(std::pair{when, id}, std::move(fn));
    due_.emplace(id, when);
    earliest = tasks_.begin()->first.second == id;
  }
  if (earliest)
    changed_.notify_all();
  return id;
}

void ticker::cancel(std::uint64_t id) {
  std::lock_guard guard{mutex_};
  if (auto i = due_.find(id); i != due_.end()) {
    tasks_.erase({i->second, id});
    due_.erase(i);
  }
}

void ticker::run() {
  std::unique_lock lock{mutex_};
  while (!stopping_) {
    if (tasks_.empty()) {
      changed_.wait(lock);
      continue;
    }
    auto first = tasks_.begin();
    auto when = first->first.first;
    if (when > clock::now()) {
      changed_.wait_until(lock, when);
      continue;
    }
    auto fn = std::move(first->second);
    due_.erase(first->first.second);
    tasks_.erase(first);
    lock.unlock();
    fn();
    lock.lock();
  }
}

} // namespace ganglion::calendar::detail
