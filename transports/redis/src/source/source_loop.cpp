#include "source/source_loop.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace ganglion::redis {

source_loop::source_loop(std::string name, server_settings settings, const options& opts,
                         hooks h, std::function<void(const std::string&)> fail,
                         const core::source_counters& metrics)
  : name_(std::move(name)), settings_(std::move(settings)), opts_(opts), hooks_(std::move(h)),
    fail_(std::move(fail)), metrics_(metrics), retry_log_(std::chrono::seconds(30)) {
  settings_.timeout = opts_.connect_timeout;
}

source_loop::~source_loop() {
  {
    std::lock_guard guard{mutex_};
    stopping_ = true;
  }
  stop_changed_.notify_all();
  waker_.wake();
  if (!thread_.joinable())
    return;
  if (thread_.get_id() == std::this_thread::get_id())
    thread_.detach(); // destroyed from its own fail callback: the thread touches nothing after
  else
    thread_.join();
}

void source_loop::start() {
  auto conn = connection::open(settings_, waker_);
  hooks_.prepare(*conn);
  thread_ = std::thread([this, c = std::move(conn)]() mutable { run(std::move(c)); });
}

bool source_loop::pause(std::chrono::milliseconds delay) {
  std::unique_lock lock{mutex_};
  return !stop_changed_.wait_for(lock, delay, [this] { return stopping_.load(); });
}

void source_loop::run(std::unique_ptr<connection> conn) {
  while (conn) {
    std::string why;
    try {
      hooks_.serve(*conn);
    } catch (const connection_error& e) {
      why = e.what();
    }
    conn.reset();
    if (stopping())
      return;
    conn = reconnect(why);
  }
}

std::unique_ptr<connection> source_loop::reconnect(const std::string& why) {
  spdlog::warn("{}: connection to {} lost ({}); reconnecting", name_, settings_.host_address,
               why);
  auto lost_at = std::chrono::steady_clock::now();
  auto delay = opts_.min_reconnect_delay;
  for (;;) {
    if (!pause(delay))
      return nullptr;
    try {
      auto conn = connection::open(settings_, waker_);
      hooks_.prepare(*conn);
      metrics_.reconnected();
      spdlog::info("{}: reconnected to {}", name_, settings_.host_address);
      return conn;
    } catch (const connection_error& e) {
      if (stopping())
        return nullptr;
      auto down = std::chrono::steady_clock::now() - lost_at;
      if (down >= opts_.lost_after) {
        auto reason = fmt::format(
          "{}: {} unreachable for {:.1f} s: {}", name_, settings_.host_address,
          std::chrono::duration_cast<std::chrono::duration<double>>(down).count(), e.what());
        spdlog::error("{}", reason);
        if (fail_)
          fail_(reason);
        return nullptr;
      }
      std::uint64_t held_back = 0;
      if (retry_log_.allow(held_back))
        spdlog::warn("{}: {}{}", name_, e.what(), core::held_back_note(held_back));
      delay = std::min(delay * 2, opts_.max_reconnect_delay);
    }
  }
}

} // namespace ganglion::redis
