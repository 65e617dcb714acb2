// The `file` event source: one directory watcher and one thread per event.

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/watcher.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/file/transport.hpp"
#include "source/change_publisher.hpp"

namespace ganglion::file {

namespace {

constexpr auto wait_step = std::chrono::milliseconds(100);

class file_source final : public core::source {
public:
  file_source(const core::source_context& ctx, const event_spec& spec, const options& opts)
    : changes_(ctx, "file", fmt::format("file source {}/{}", ctx.event_source_name, ctx.event_name),
               spec.watch_path, spec.event_type, spec.metadata, stop_),
      spec_(spec), opts_(opts), fail_(ctx.fail), connected_(ctx.connected) {
    thread_ = std::thread([this] { run(); });
  }

  ~file_source() override {
    stop_.stop();
    thread_.join();
  }

private:
  /// Watches the directory, trying again with backoff (200 ms doubling to 10 s) while it
  /// cannot be watched (missing, unreadable); false when stopping.
  bool watch() {
    auto pause = std::chrono::milliseconds(200);
    core::log_throttle log{std::chrono::seconds(60)};
    while (true) {
      try {
        const auto& dir = spec_.watch_path.directory;
        watcher_ = spec_.polling ? make_stat_poller(dir, opts_.polling_interval)
                                 : make_inotify_watcher(dir);
        spdlog::info("{}: watching {} for {} ({})", changes_.name(), dir, spec_.event_type,
                     spec_.polling ? "polling" : "inotify");
        if (connected_)
          connected_();
        return true;
      } catch (const watch_error& e) {
        std::uint64_t held_back = 0;
        if (log.allow(held_back))
          spdlog::warn("{}: {}; trying again until it can{}", changes_.name(), e.what(),
                       core::held_back_note(held_back, "attempts"));
      }
      if (stop_.wait(pause))
        return false;
      pause = std::min(pause * 2, std::chrono::milliseconds(10000));
    }
  }

  void run() {
    if (!watch())
      return;
    while (!stop_.stopped()) {
      for (const auto& change : watcher_->wait(wait_step))
        if (!changes_.offer(change.name, change.op))
          return;
      if (auto why = watcher_->ended(); !why.empty()) {
        spdlog::warn("{}: {}", changes_.name(), why);
        if (fail_)
          fail_(fmt::format("{}: {}", changes_.name(), why));
        return;
      }
    }
  }

  stop_flag stop_;
  change_publisher changes_;
  event_spec spec_;
  options opts_;
  std::function<void(const std::string&)> fail_;
  std::function<void()> connected_;
  std::unique_ptr<watcher> watcher_;
  std::thread thread_;
};

} // namespace

std::vector<std::string> check_source(const core::source_context& ctx) {
  return core::check_spec<event_spec>(ctx, [&](const event_spec& spec) {
    return watch_problems(fmt::format("file source {}/{}", ctx.event_source_name, ctx.event_name),
                          spec.event_type, spec.watch_path);
  });
}

namespace {

/// Pending while the directory cannot be watched yet: what the source waits for, and why.
std::string waiting_for(const core::source_context& ctx) {
  const auto* spec = std::any_cast<event_spec>(&core::event_of(ctx).spec);
  if (!spec)
    return {};
  const auto& dir = spec->watch_path.directory;
  struct stat st{};
  errno = 0;
  if (::stat(dir.c_str(), &st) == 0 && ::access(dir.c_str(), R_OK) == 0)
    return {};
  return fmt::format("waiting for directory {} ({}; tried again with backoff)", dir,
                     std::strerror(errno == 0 ? EACCES : errno));
}

} // namespace

core::source_factory make_source_factory(options opts) {
  core::source_factory factory{
    [opts](const core::source_context& ctx) -> std::unique_ptr<core::source> {
      if (!ctx.bus)
        throw core::source_error("file source started without a bus");
      return std::make_unique<file_source>(ctx, core::spec_of<event_spec>(ctx), opts);
    },
    check_source, source_spec_step()};
  factory.pending_until_connected(waiting_for);
  return factory;
}

} // namespace ganglion::file
