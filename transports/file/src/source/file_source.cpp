// The `file` event source: one directory watcher and one thread per event.

#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/watcher.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/file/transport.hpp"
#include "source/delivery.hpp"
#include "source/event_data.hpp"
#include "source/path_match.hpp"

namespace ganglion::file {

namespace {

constexpr auto wait_step = std::chrono::milliseconds(100);

class file_source final : public core::source {
public:
  file_source(const core::source_context& ctx, const event_spec& spec, const options& opts)
    : name_(fmt::format("file source {}/{}", ctx.event_source_name, ctx.event_name)),
      event_source_(ctx.event_source_name), event_name_(ctx.event_name), spec_(spec),
      matcher_(spec.watch_path), fail_(ctx.fail),
      metrics_(ctx.metrics, ctx.event_source_name, ctx.event_name),
      delivery_(name_, ctx.bus, metrics_, stop_) {
    try {
      watcher_ = spec.polling ? make_stat_poller(spec.watch_path.directory, opts.polling_interval)
                              : make_inotify_watcher(spec.watch_path.directory);
    } catch (const watch_error& e) {
      throw core::source_error(fmt::format("{}: {}", name_, e.what()));
    }
    spdlog::info("{}: watching {} for {} ({})", name_, spec.watch_path.directory,
                 spec.event_type, spec.polling ? "polling" : "inotify");
    thread_ = std::thread([this] { run(); });
  }

  ~file_source() override {
    stop_.stop();
    thread_.join();
  }

private:
  void run() {
    while (!stop_.stopped()) {
      for (const auto& change : watcher_->wait(wait_step)) {
        if (!matcher_.matches(change.name) || op_string(change.op) != spec_.event_type)
          continue;
        metrics_.received();
        spdlog::debug("{}: {} {}", name_, op_string(change.op), change.name);
        auto data = file_event_data(change.name, change.op, spec_.metadata);
        if (!delivery_.deliver(core::make_event(event_source_, "file", event_name_, data)))
          return;
      }
      if (auto why = watcher_->ended(); !why.empty()) {
        spdlog::warn("{}: {}", name_, why);
        if (fail_)
          fail_(fmt::format("{}: {}", name_, why));
        return;
      }
    }
  }

  std::string name_;
  std::string event_source_;
  std::string event_name_;
  event_spec spec_;
  path_matcher matcher_;
  std::function<void(const std::string&)> fail_;
  source_metrics metrics_;
  stop_flag stop_;
  delivery delivery_;
  std::unique_ptr<watcher> watcher_;
  std::thread thread_;
};

} // namespace

std::vector<std::string> check_source(const core::source_context& ctx) {
  return core::check_spec<event_spec>(ctx, [&](const event_spec& spec) {
    auto name = fmt::format("file source {}/{}", ctx.event_source_name, ctx.event_name);
    std::vector<std::string> problems;
    if (spec.event_type.empty())
      problems.push_back(name + ": type must be specified");
    const auto& w = spec.watch_path;
    if (w.directory.empty() || w.directory.front() != '/')
      problems.push_back(name + ": directory must be an absolute file path");
    if (w.path.empty() == w.path_regexp.empty())
      problems.push_back(name + ": watchPathConfig needs one of path and pathRegexp");
    try {
      path_matcher{w};
    } catch (const std::invalid_argument& e) {
      problems.push_back(name + ": " + e.what());
    }
    return problems;
  });
}

core::source_factory make_source_factory(options opts) {
  return {[opts](const core::source_context& ctx) -> std::unique_ptr<core::source> {
            if (!ctx.bus)
              throw core::source_error("file source started without a bus");
            return std::make_unique<file_source>(ctx, core::spec_of<event_spec>(ctx), opts);
          },
          check_source, source_spec_step()};
}

} // namespace ganglion::file
