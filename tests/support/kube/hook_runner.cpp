#include "hook_runner.hpp"

#include <cstdio>
#include <exception>
#include <vector>

namespace ganglion::test::kube {

hook_runner::hook_runner() : thread_([this] { run(); }) {}

hook_runner::~hook_runner() {
  stop();
}

void hook_runner::stop() {
  {
    std::lock_guard guard{mutex_};
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id())
    thread_.join();
}

int hook_runner::add(std::string resource_key, write_hook hook) {
  std::lock_guard guard{mutex_};
  hooks_.emplace(next_id_, std::make_pair(std::move(resource_key), std::move(hook)));
  return next_id_++;
}

void hook_runner::remove(int id) {
  std::lock_guard guard{mutex_};
  hooks_.erase(id);
}

void hook_runner::written(const std::string& resource_key, const write_event& event) {
  {
    std::lock_guard guard{mutex_};
    bool wanted = false;
    for (const auto& [id, entry] : hooks_)
      wanted = wanted || entry.first == resource_key;
    if (!wanted)
      return;
    queue_.emplace_back(resource_key, event);
  }
  wake_.notify_all();
}

void hook_runner::run() {
  std::unique_lock lock{mutex_};
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_)
      return;
    auto [key, event] = std::move(queue_.front());
    queue_.pop_front();
    std::vector<write_hook> matching;
    for (const auto& [id, entry] : hooks_)
      if (entry.first == key)
        matching.push_back(entry.second);
    lock.unlock();
    for (const auto& hook : matching) {
      try {
        hook(event);
      } catch (const std::exception& e) {
        std::fprintf(stderr, "kube::api_server: a write hook threw: %s\n", e.what());
      }
    }
    lock.lock();
  }
}

} // namespace ganglion::test::kube
