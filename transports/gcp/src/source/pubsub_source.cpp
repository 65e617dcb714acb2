// The `pubSub` event source: prepares its subscription as Argo does, then pulls it on a thread
// (source/puller.cpp).

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/api.hpp"
#include "client/subscription.hpp"
#include "ganglion/core/internal/source_counters.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/read_secret.hpp"
#include "ganglion/gcp/spec.hpp"
#include "ganglion/gcp/transport.hpp"
#include "source/event_data.hpp"
#include "source/puller.hpp"

namespace ganglion::gcp {

namespace {

using detail::api;
using detail::api_error;

/// Longest service account key read from GOOGLE_APPLICATION_CREDENTIALS.
constexpr std::streamsize max_key_file_bytes = 64 * 1024;

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string{value} : std::string{};
}

/// The service account key: `credentialSecret`, else the file GOOGLE_APPLICATION_CREDENTIALS
/// names (the first place Google's default credentials look). Throws core::source_error.
detail::service_account account_of(const event_spec& spec, const core::source_context& ctx) {
  std::string json;
  std::string from;
  if (spec.credential_secret) {
    from = "pubSub." + ctx.event_name + ".credentialSecret";
    json = core::read_secret_or_throw<core::source_error>(ctx.secrets.get(),
                                                          *spec.credential_secret, from);
  } else if (auto path = env("GOOGLE_APPLICATION_CREDENTIALS"); !path.empty()) {
    from = "GOOGLE_APPLICATION_CREDENTIALS " + path;
    std::ifstream in(path, std::ios::binary);
    std::string text(static_cast<std::size_t>(max_key_file_bytes) + 1, '\0');
    in.read(text.data(), max_key_file_bytes + 1);
    if (!in && in.gcount() == 0)
      throw core::source_error(from + ": cannot read the file");
    if (in.gcount() > max_key_file_bytes)
      throw core::source_error(from + ": larger than 64 KiB, not a service account key");
    text.resize(static_cast<std::size_t>(in.gcount()));
    json = std::move(text);
  } else {
    throw core::source_error(
      "no credentialSecret, and neither PUBSUB_EMULATOR_HOST nor GOOGLE_APPLICATION_CREDENTIALS "
      "is set: ganglion does not use Workload Identity or the GCP metadata server");
  }
  try {
    return detail::parse_service_account(json);
  } catch (const std::invalid_argument& e) {
    throw core::source_error(from + ": " + e.what());
  }
}

/// A running pubSub source.
class pubsub_source final : public core::source {
public:
  pubsub_source(const core::source_context& ctx, const event_spec& spec,
                std::shared_ptr<http::client> requests, const options& opts)
    : name_(fmt::format("pubSub source {}/{}", ctx.event_source_name, ctx.event_name)),
      metrics_(ctx.metrics, ctx.event_source_name, ctx.event_name),
      delete_on_finish_(spec.delete_subscription_on_finish) {
    auto emulator = opts.emulator_host.value_or(env("PUBSUB_EMULATOR_HOST"));
    settings_.base_url = detail::api_root(opts.api_url, emulator);
    settings_.call_timeout = opts.call_timeout;
    if (emulator.empty())
      settings_.account = account_of(spec, ctx);
    requests_ = std::move(requests);

    const auto& event = core::event_of(ctx);
    std::optional<std::string> filter;
    if (event.filter)
      filter = event.filter->expression;
    detail::subscription_names names;
    names.subscription = "projects/" + spec.project_id + "/subscriptions/"
                         + detail::subscription_id(spec, ctx.event_name, filter);
    if (!spec.topic.empty())
      names.topic = "projects/" + spec.topic_project() + "/topics/" + spec.topic;
    subscription_ = names.subscription;
    try {
      api setup(requests_, settings_, [] { return false; });
      detail::prepare_subscription(setup, names, !emulator.empty());
    } catch (const api_error& e) {
      throw core::source_error(
        fmt::format("{}: failed to prepare client or subscription for {}, {}", name_,
                    ctx.event_name, e.what()));
    }

    detail::puller_target target{name_,          subscription_,  ctx.event_source_name,
                                 ctx.event_name, spec.json_body, spec.metadata,
                                 ctx.bus,        ctx.fail};
    puller_ = std::make_unique<detail::puller>(
      std::move(target), opts, metrics_, [this](std::function<bool()> stopping) {
        return std::make_unique<api>(requests_, settings_, std::move(stopping));
      });
    spdlog::info("{}: pulling {} from {}{}", name_, subscription_, settings_.base_url,
                 emulator.empty() ? "" : " (emulator, no credentials)");
  }

  ~pubsub_source() override {
    puller_.reset();
    if (!delete_on_finish_)
      return;
    try {
      api finish(requests_, settings_, [] { return false; });
      detail::delete_subscription(finish, subscription_);
      spdlog::info("{}: deleted {}", name_, subscription_);
    } catch (const std::exception& e) {
      spdlog::error("{}: failed to delete the PubSub subscription {}: {}", name_, subscription_,
                    e.what());
    }
  }

private:
  std::string name_;
  core::message_source_counters metrics_;
  bool delete_on_finish_;
  std::shared_ptr<http::client> requests_;
  detail::api_settings settings_;
  std::string subscription_;
  std::unique_ptr<detail::puller> puller_;
};

} // namespace

std::vector<std::string> check_source(const core::source_context& ctx) {
  return core::check_spec<event_spec>(ctx, [&](const event_spec& spec) {
    auto name = fmt::format("pubSub source {}/{}", ctx.event_source_name, ctx.event_name);
    std::vector<std::string> problems;
    if (spec.topic.empty() && spec.subscription_id.empty())
      problems.push_back(name + ": must specify topic or subscriptionID");
    if (spec.project_id.empty())
      problems.push_back(name + ": projectID is required");
    return problems;
  });
}

core::source_factory make_source_factory(std::shared_ptr<http::client> requests, options opts) {
  return {[requests, opts](const core::source_context& ctx) -> std::unique_ptr<core::source> {
            if (!ctx.bus)
              throw core::source_error("pubSub source started without a bus");
            return std::make_unique<pubsub_source>(ctx, core::spec_of<event_spec>(ctx), requests,
                                                   opts);
          },
          check_source, source_spec_step()};
}

} // namespace ganglion::gcp
