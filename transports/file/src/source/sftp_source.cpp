// The `sftp` event source: one SFTP session and one polling thread per event.

#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/fs_event.hpp"
#include "client/sftp_client.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/core/internal/source_counters.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/dsl/duration.hpp"
#include "ganglion/file/transport.hpp"
#include "source/change_publisher.hpp"
#include "source/listing_diff.hpp"

namespace ganglion::file {

namespace {

std::chrono::milliseconds poll_interval(const sftp_event_spec& spec, const options& opts) {
  if (auto ns = dsl::parse_go_duration(spec.poll_interval_duration); ns && *ns > 0)
    return std::max(std::chrono::milliseconds(1),
                    std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::nanoseconds(*ns)));
  return opts.sftp_poll_interval;
}

class sftp_source final : public core::source {
public:
  sftp_source(const core::source_context& ctx, const sftp_event_spec& spec, const options& opts)
    : changes_(ctx, "sftp", fmt::format("sftp source {}/{}", ctx.event_source_name, ctx.event_name),
               spec.watch_path, spec.event_type, spec.metadata, stop_),
      name_(changes_.name()), directory_(spec.watch_path.directory), opts_(opts),
      interval_(poll_interval(spec, opts)), fail_(ctx.fail), connected_(ctx.connected),
      counters_(ctx.metrics, ctx.event_source_name, ctx.event_name, {}) {
    try {
      credentials_ = resolve_credentials(spec, ctx.secrets.get());
    } catch (const sftp_error& e) {
      throw core::source_error(fmt::format("{}: {}", name_, e.what()));
    }
    thread_ = std::thread([this] { run(); });
  }

  ~sftp_source() override {
    stop_.stop();
    thread_.join();
  }

private:
  /// A session and a listing of the directory, trying `sftp_connect_attempts` times; nullopt
  /// when stopping, or after calling fail_ when every attempt failed.
  std::optional<std::vector<remote_file>> connect_and_list() {
    std::string last;
    for (int attempt = 0; attempt < opts_.sftp_connect_attempts; ++attempt) {
      if (attempt > 0 && stop_.wait(opts_.sftp_connect_wait))
        return std::nullopt;
      try {
        if (!session_)
          session_ = std::make_unique<sftp_session>(credentials_, opts_.sftp_connect_timeout);
        return session_->list_files(directory_);
      } catch (const sftp_error& e) {
        session_.reset();
        last = e.what();
        std::uint64_t held_back = 0;
        if (retry_log_.allow(held_back))
          spdlog::warn("{}: {}; trying again{}", name_, last,
                       core::held_back_note(held_back, "failures"));
      }
      if (stop_.stopped())
        return std::nullopt;
    }
    if (fail_)
      fail_(fmt::format("{}: {}", name_, last));
    return std::nullopt;
  }

  void run() {
    auto listed = connect_and_list();
    if (!listed)
      return;
    auto before = std::move(*listed);
    spdlog::info("{}: listing {} on {}:{} every {} ms", name_, directory_,
                 credentials_.host, credentials_.port, interval_.count());
    if (connected_)
      connected_();
    while (!stop_.wait(interval_)) {
      std::optional<std::vector<remote_file>> now;
      try {
        now = session_->list_files(directory_);
      } catch (const sftp_error& e) {
        spdlog::warn("{}: {}; connecting again", name_, e.what());
        session_.reset();
        counters_.reconnected();
        now = connect_and_list();
        if (!now)
          return;
      }
      auto diff = diff_listings(before, *now);
      for (const auto& f : diff.removed)
        if (!changes_.offer(f.name, op_remove))
          return;
      for (const auto& f : diff.created)
        if (!changes_.offer(f.name, op_create))
          return;
      before = std::move(*now);
    }
  }

  stop_flag stop_;
  change_publisher changes_;
  std::string name_;
  std::string directory_;
  options opts_;
  std::chrono::milliseconds interval_;
  std::function<void(const std::string&)> fail_;
  std::function<void()> connected_;
  sftp_credentials credentials_;
  std::unique_ptr<sftp_session> session_;
  /// Only its reconnect count: change_publisher counts the events.
  core::source_counters counters_;
  core::log_throttle retry_log_;
  std::thread thread_;
};

std::string address_of(const core::source_context& ctx) {
  const auto* spec = std::any_cast<sftp_event_spec>(&core::event_of(ctx).spec);
  if (!spec || !spec->address)
    return "connecting to the sftp server";
  return fmt::format("connecting to the sftp server of secret {}/{}", spec->address->name,
                     spec->address->key);
}

} // namespace

std::vector<std::string> check_sftp_source(const core::source_context& ctx) {
  return core::check_spec<sftp_event_spec>(ctx, [&](const sftp_event_spec& spec) {
    auto name = fmt::format("sftp source {}/{}", ctx.event_source_name, ctx.event_name);
    auto problems = watch_problems(name, spec.event_type, spec.watch_path);
    if (!spec.username)
      problems.push_back(name + ": username is required");
    if (!spec.address)
      problems.push_back(name + ": address is required");
    if (!spec.password && !spec.ssh_key_secret)
      problems.push_back(name + ": password or sshKeySecret is required");
    return problems;
  });
}

core::source_factory make_sftp_source_factory(options opts) {
  core::source_factory factory{
    [opts](const core::source_context& ctx) -> std::unique_ptr<core::source> {
      if (!ctx.bus)
        throw core::source_error("sftp source started without a bus");
      return std::make_unique<sftp_source>(ctx, core::spec_of<sftp_event_spec>(ctx), opts);
    },
    check_sftp_source, sftp_spec_step()};
  factory.pending_until_connected(address_of);
  return factory;
}

} // namespace ganglion::file
