#include "client/delay_queue.hpp"

#include <exception>

#include <spdlog/spdlog.h>

namespace ganglion::kubernetes::detail {

namespace {

void run_task(delay_queue::task& t, bool cancelled) {
  try {
    t(cancelled);
  } catch (const std::exception& e) {
    spdlog::error("kubernetes client: a delayed task threw: {}", e.what());
  }
}

} // namespace

delay_queue::delay_queue() : thread_([this] { run(); }) {}

delay_queue::~delay_queue() {
  shutdown();
}

void delay_queue::post(std::chrono::steady_clock::duration delay, task t) {
  {
    std::lock_guard guard{mutex_};
    if (!stopping_) {
      tasks_.emplace(std::chrono::steady_clock::now() + delay, std::move(t));
      wake_.notify_one();
      return;
    }
  }
  run_task(t, true);
}

void delay_queue::shutdown() {
  {
    std::lock_guard guard{mutex_};
    stopping_ = true;
  }
  wake_.notify_one();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id())
    thread_.join();
}

void delay_queue::run() {
  std::unique_lock lock{mutex_};
  for (;;) {
    if (stopping_) {
      auto left = std::move(tasks_);
      tasks_.clear();
      lock.unlock();
      for (auto& [at, t] : left)
        run_task(t, true);
      return;
    }
    if (tasks_.empty()) {
      wake_.wait(lock);
      continue;
    }
    auto first = tasks_.begin();
    if (first->first > std::chrono::steady_clock::now()) {
      wake_.wait_until(lock, first->first);
      continue;
    }
    auto t = std::move(first->second);
    tasks_.erase(first);
    lock.unlock();
    run_task(t, false);
    lock.lock();
  }
}

} // namespace ganglion::kubernetes::detail
