// The `generic` event source: one stream per replica of the signal service `url` names.

#include <algorithm>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/channel.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/grpc/spec.hpp"
#include "ganglion/grpc/transport.hpp"
#include "source/replica_stream.hpp"
#include "client/target.hpp"

namespace ganglion::grpc {

namespace {

using namespace detail;

std::string source_name(const core::source_context& ctx) {
  return fmt::format("generic source {}/{}", ctx.event_source_name, ctx.event_name);
}

/// A running generic source: the streams of the replicas `url` resolves to, kept up to date
/// by a thread that resolves the name again every `resolve_interval`.
class generic_source final : public core::source {
public:
  generic_source(std::shared_ptr<const stream_setup> setup, server_target target,
                 std::shared_ptr<bus_window> window, std::shared_ptr<source_health> health,
                 std::shared_ptr<const source_metrics> metrics)
    : setup_(std::move(setup)), target_(std::move(target)), window_(std::move(window)),
      health_(std::move(health)), metrics_(std::move(metrics)) {
    thread_ = std::thread([this] { run(); });
  }

  ~generic_source() override {
    window_->stop();
    {
      std::lock_guard guard{mutex_};
      stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
    for (auto& replica : replicas_)
      replica->stop();
    replicas_.clear();
    spdlog::info("{}: stopped", setup_->name);
  }

private:
  void run() {
    const auto& opts = setup_->opts;
    auto backoff = opts.initial_backoff;
    for (;;) {
      std::string error;
      auto addresses = resolve(target_, error);
      std::chrono::milliseconds wait = opts.resolve_interval;
      if (addresses.empty()) {
        metrics_->connect_failed();
        if (health_->failed(error))
          return;
        spdlog::warn("{}: {}; trying again in {} ms", setup_->name, error, backoff.count());
        wait = backoff;
        backoff = std::min(backoff * 2, opts.max_backoff);
      } else {
        backoff = opts.initial_backoff;
        reconcile(addresses);
      }
      std::unique_lock lock{mutex_};
      if (!target_.needs_resolving() && !addresses.empty()) {
        changed_.wait(lock, [this] { return stopping_; });
        return;
      }
      if (changed_.wait_for(lock, wait, [this] { return stopping_; }))
        return;
    }
  }

  /// One stream per address: new addresses get one, gone ones lose theirs.
  void reconcile(const std::vector<std::string>& addresses) {
    std::set<std::string> wanted{addresses.begin(), addresses.end()};
    std::vector<std::unique_ptr<replica_stream>> gone;
    std::lock_guard guard{mutex_};
    if (stopping_)
      return;
    for (auto it = replicas_.begin(); it != replicas_.end();) {
      if (wanted.erase((*it)->address()) == 0) {
        spdlog::info("{}: {} is no longer an address of {}", setup_->name, (*it)->address(),
                     target_.host);
        gone.push_back(std::move(*it));
        it = replicas_.erase(it);
      } else {
        ++it;
      }
    }
    for (const auto& address : addresses)
      if (wanted.count(address))
        replicas_.push_back(
          std::make_unique<replica_stream>(setup_, address, window_, health_, metrics_));
  }

  std::shared_ptr<const stream_setup> setup_;
  server_target target_;
  std::shared_ptr<bus_window> window_;
  std::shared_ptr<source_health> health_;
  std::shared_ptr<const source_metrics> metrics_;
  std::mutex mutex_;
  std::condition_variable changed_;
  bool stopping_ = false;
  std::vector<std::unique_ptr<replica_stream>> replicas_;
  std::thread thread_;
};

std::unique_ptr<core::source> start_source(const options& opts, const core::source_context& ctx) {
  const auto& spec = core::spec_of<generic_spec>(ctx);
  if (!ctx.bus)
    throw core::source_error("generic source started without a bus");
  auto name = source_name(ctx);
  std::string error;
  auto target = parse_target(spec.url, error);
  if (!target)
    throw core::source_error(fmt::format("{}: url: {}", name, error));

  auto setup = std::make_shared<stream_setup>();
  setup->name = name;
  setup->event_source = ctx.event_source_name;
  setup->event_name = ctx.event_name;
  setup->config = spec.config;
  setup->json_body = spec.json_body;
  setup->metadata = spec.metadata;
  setup->tls = !spec.insecure;
  setup->server_name = target->host;
  setup->authority = target->authority();
  setup->auth_secret = spec.auth_secret;
  setup->secrets = ctx.secrets;
  setup->opts = opts;
  if (setup->tls && !opts.ca_file.empty()) {
    try {
      setup->root_pem = read_pem_file(opts.ca_file);
    } catch (const std::exception& e) {
      throw core::source_error(fmt::format("{}: --grpc-ca-file: {}", name, e.what()));
    }
  }
  if (spec.auth_secret) {
    std::string secret_error;
    if (!ctx.secrets || !ctx.secrets->read(spec.auth_secret->name, spec.auth_secret->key,
                                           &secret_error))
      throw core::source_error(fmt::format(
        "{}: authSecret: {}", name, secret_error.empty() ? "no --secrets-dir" : secret_error));
  }

  auto metrics =
    std::make_shared<const source_metrics>(ctx.metrics, ctx.event_source_name, ctx.event_name);
  auto window = std::make_shared<bus_window>(ctx.bus, opts.max_in_flight, *metrics, name);
  auto give_up = ctx.give_up ? ctx.give_up : ctx.fail;
  auto health = std::make_shared<source_health>(opts.max_failed_attempts, give_up, ctx.connected);
  spdlog::info("{}: connecting to {}{}", name, spec.url, spec.insecure ? " (plaintext)" : " (TLS)");
  return std::make_unique<generic_source>(std::move(setup), std::move(*target), std::move(window),
                                          std::move(health), std::move(metrics));
}

} // namespace

std::vector<std::string> check_source(const core::source_context& ctx) {
  return core::check_spec<generic_spec>(ctx, [&](const auto& spec) {
    auto name = source_name(ctx);
    std::vector<std::string> problems;
    std::string error;
    if (spec.url.empty())
      problems.push_back(fmt::format("{}: server url can't be empty", name));
    else if (!parse_target(spec.url, error))
      problems.push_back(fmt::format("{}: url: {}", name, error));
    if (spec.config.empty())
      problems.push_back(fmt::format("{}: config can't be empty", name));
    return problems;
  });
}

core::source_factory make_source_factory(options opts) {
  core::source_factory factory{
    [opts](const core::source_context& ctx) { return start_source(opts, ctx); }, check_source,
    source_spec_step()};
  return factory.pending_until_connected([](const core::source_context& ctx) {
    return "connecting to " + core::spec_of<generic_spec>(ctx).url;
  });
}

} // namespace ganglion::grpc
