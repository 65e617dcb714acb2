#pragma once

// Runs write hooks on their own thread, in write order, outside the store's lock.

#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include "api_server.hpp"

namespace ganglion::test::kube {

/// The write hooks of a server and the thread that runs them.
class hook_runner {
public:
  hook_runner();
  /// Stops: runs no more hooks, waits for the one running.
  ~hook_runner();
  /// As the destructor (later calls do nothing).
  void stop();
  hook_runner(const hook_runner&) = delete;
  hook_runner& operator=(const hook_runner&) = delete;

  /// Runs `hook` for writes to the resource `resource_key`; returns its id.
  int add(std::string resource_key, write_hook hook);
  void remove(int id);
  /// Queues `event` for the hooks of `resource_key` (cheap when there are none).
  void written(const std::string& resource_key, const write_event& event);

private:
  void run();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::map<int, std::pair<std::string, write_hook>> hooks_;
  std::deque<std::pair<std::string, write_event>> queue_;
  int next_id_ = 1;
  bool stopping_ = false;
  std::thread thread_;
};

} // namespace ganglion::test::kube
