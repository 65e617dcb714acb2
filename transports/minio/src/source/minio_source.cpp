// The `minio` event source: one ListenBucketNotification stream per event, on its own thread.

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/listen_stream.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/core/internal/refusal_spell.hpp"
#include "ganglion/core/internal/source_counters.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/read_secret.hpp"
#include "ganglion/minio/spec.hpp"
#include "ganglion/minio/transport.hpp"
#include "source/event_data.hpp"

namespace ganglion::minio {

namespace {

/// minio-go's reconnect waits: from 1 s, doubling, at most 30 s.
constexpr std::chrono::milliseconds first_wait{1000};
constexpr std::chrono::milliseconds max_wait{30000};

std::string source_name(const core::source_context& ctx) {
  return fmt::format("minio source {}/{}", ctx.event_source_name, ctx.event_name);
}

std::string trim_space(std::string text) {
  auto first = text.find_first_not_of(" \t\r\n");
  auto last = text.find_last_not_of(" \t\r\n");
  return first == std::string::npos ? std::string{} : text.substr(first, last - first + 1);
}

/// The source's counters, shared with the bus's answers still in flight.
struct counters {
  counters(const core::source_context& ctx, const std::string& name)
    : metrics(ctx.metrics, ctx.event_source_name, ctx.event_name),
      refusals(name, "MinIO's notification stream cannot redeliver, so notifications are "
                     "dropped until the bus accepts again") {}

  core::message_source_counters metrics;
  core::refusal_spell refusals;
};

/// A running minio source: the stream thread, stopped and joined when destroyed.
class minio_source final : public core::source {
public:
  minio_source(const core::source_context& ctx, const event_spec& spec,
               detail::listen_credentials credentials)
    : name_(source_name(ctx)), event_source_(ctx.event_source_name), event_name_(ctx.event_name),
      metadata_(spec.metadata), bus_(ctx.bus), fail_(ctx.fail), connected_(ctx.connected),
      credentials_(std::move(credentials)), counters_(std::make_shared<counters>(ctx, name_)) {
    target_.endpoint = spec.endpoint;
    target_.insecure = spec.insecure;
    target_.bucket = spec.bucket ? spec.bucket->name : std::string{};
    target_.events = spec.events;
    target_.prefix = spec.prefix;
    target_.suffix = spec.suffix;
    thread_ = std::thread([this] { run(); });
  }

  ~minio_source() override {
    {
      std::lock_guard lock{mutex_};
      stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
  }

private:
  void run() {
    auto wait = first_wait;
    bool ever_opened = false;
    detail::listen_handlers handlers;
    handlers.on_open = [&] {
      if (ever_opened)
        counters_->metrics.reconnected();
      ever_opened = true;
      wait = first_wait;
      spdlog::info("{}: listening to bucket {} at {}", name_, target_.bucket, target_.endpoint);
      if (connected_)
        connected_();
    };
    handlers.on_line = [this](std::string_view line) { on_line(line); };
    while (!stop_) {
      auto result = detail::listen(target_, credentials_, handlers, stop_);
      if (stop_)
        return;
      if (!result.opened) {
        auto why = fmt::format("{}: cannot listen to bucket {} at {}: {}", name_, target_.bucket,
                               target_.endpoint, result.error);
        spdlog::error("{}", why);
        if (fail_)
          fail_(why);
        return;
      }
      spdlog::warn("{}: the notification stream ended{}; reconnecting in {} ms", name_,
                   result.error.empty() ? "" : ": " + result.error, wait.count());
      std::unique_lock lock{mutex_};
      if (wake_.wait_for(lock, wait, [this] { return stop_.load(); }))
        return;
      wait = std::min(wait * 2, max_wait);
    }
  }

  void on_line(std::string_view line) {
    std::optional<std::string> data;
    try {
      data = detail::minio_event_data(line, metadata_);
    } catch (const std::exception& e) {
      counters_->metrics.rejected("invalid_json");
      std::uint64_t held_back = 0;
      if (invalid_log_.allow(held_back))
        spdlog::error("{}: invalid notification: {}{}", name_, e.what(),
                      core::held_back_note(held_back));
      return;
    }
    if (!data)
      return;
    counters_->metrics.received();
    bus_->publish(core::make_event(event_source_, "minio", event_name_, std::move(*data)),
                  [c = counters_](core::publish_status status, const std::string& error) {
                    c->refusals.record(status, error, c->metrics);
                  });
  }

  std::string name_;
  std::string event_source_;
  std::string event_name_;
  std::map<std::string, std::string> metadata_;
  std::shared_ptr<core::bus_publisher> bus_;
  std::function<void(const std::string&)> fail_;
  std::function<void()> connected_;
  detail::listen_target target_;
  detail::listen_credentials credentials_;
  std::shared_ptr<counters> counters_;
  core::log_throttle invalid_log_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::atomic<bool> stop_{false};
  /// Last: started once everything above is ready.
  std::thread thread_;
};

std::unique_ptr<core::source> start_source(const core::source_context& ctx) {
  const auto& spec = core::spec_of<event_spec>(ctx);
  if (!ctx.bus)
    throw core::source_error("minio source started without a bus");
  auto secrets = ctx.secrets.get();
  detail::listen_credentials credentials;
  // Argo reads the keys with GetSecretFromVolume, which trims them.
  credentials.access_key = trim_space(core::read_secret_or_throw<core::source_error>(
    secrets, *spec.access_key, fmt::format("spec.minio.{}.accessKey", ctx.event_name)));
  credentials.secret_key = trim_space(core::read_secret_or_throw<core::source_error>(
    secrets, *spec.secret_key, fmt::format("spec.minio.{}.secretKey", ctx.event_name)));
  if (spec.ca_certificate)
    credentials.ca_pem = core::read_secret_or_throw<core::source_error>(
      secrets, *spec.ca_certificate, fmt::format("spec.minio.{}.caCertificate", ctx.event_name));
  credentials.region = spec.region;
  return std::make_unique<minio_source>(ctx, spec, std::move(credentials));
}

std::vector<std::string> check_source(const core::source_context& ctx) {
  return core::check_spec<event_spec>(ctx, [&](const event_spec& spec) {
    auto name = source_name(ctx);
    std::vector<std::string> problems;
    if (!spec.access_key || !spec.secret_key)
      problems.push_back(fmt::format("{}: accessKey and secretKey are required", name));
    if (spec.endpoint.empty())
      problems.push_back(fmt::format("{}: endpoint url can't be empty", name));
    else if (auto problem = detail::endpoint_problem(spec.endpoint); !problem.empty())
      problems.push_back(fmt::format("{}: {}", name, problem));
    if (!spec.bucket || spec.bucket->name.empty())
      problems.push_back(fmt::format("{}: bucket name can't be empty", name));
    else if (auto problem = detail::bucket_name_problem(spec.bucket->name); !problem.empty())
      problems.push_back(fmt::format("{}: {}", name, problem));
    return problems;
  });
}

} // namespace

core::source_factory make_source_factory() {
  core::source_factory factory{start_source, check_source, source_spec_step()};
  return factory.pending_until_connected([](const core::source_context& ctx) {
    const auto& spec = core::spec_of<event_spec>(ctx);
    return fmt::format("listening to bucket {} at {}", spec.bucket ? spec.bucket->name : "",
                       spec.endpoint);
  });
}

} // namespace ganglion::minio
