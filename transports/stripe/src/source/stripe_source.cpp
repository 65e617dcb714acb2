#include <algorithm>
#include <mutex>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/endpoints_api.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/read_secret.hpp"
#include "ganglion/http/hooked_source.hpp"
#include "ganglion/stripe/spec.hpp"
#include "ganglion/stripe/transport.hpp"
#include "source/event_data.hpp"
#include "source/signature.hpp"

namespace ganglion::stripe {

namespace {

using http::registration_failure;

/// The signing secret of the endpoint this source created; empty while none is known.
class signing_secret {
public:
  void set(std::string secret) {
    std::lock_guard lock{mutex_};
    secret_ = std::move(secret);
  }
  std::string get() const {
    std::lock_guard lock{mutex_};
    return secret_;
  }

private:
  mutable std::mutex mutex_;
  std::string secret_;
};

std::vector<std::string> sorted(std::vector<std::string> v) {
  std::sort(v.begin(), v.end());
  return v;
}

/// Argo's PostActivate with createWebhook: the endpoint of `webhook.url` at Stripe. Argo creates
/// one on every start; this finds the one already there first (same URL), and sets its events.
class stripe_endpoint final : public http::provider_hooks {
public:
  stripe_endpoint(std::string name, const event_spec& spec, detail::endpoints_api api,
                  std::shared_ptr<signing_secret> secret)
    : name_(std::move(name)), api_(std::move(api)), secret_(std::move(secret)),
      url_(http::formatted_url(spec.webhook.url, spec.webhook.endpoint)),
      events_(spec.event_filter && !spec.event_filter->empty() ? *spec.event_filter
                                                               : std::vector<std::string>{"*"}) {}

  std::optional<registration_failure> apply() override {
    http::api_answer failed;
    auto endpoints = api_.list(failed);
    if (!endpoints)
      return failure(failed);
    auto found = std::find_if(endpoints->begin(), endpoints->end(),
                              [&](const detail::endpoint& e) { return e.url == url_; });
    if (found == endpoints->end()) {
      auto made = api_.create(url_, events_, failed);
      if (!made)
        return failure(failed);
      secret_->set(made->secret);
      spdlog::info("{}: Stripe webhook endpoint {} created for {}; Stripe-Signature is checked "
                   "with its signing secret",
                   name_, made->id, url_);
      return std::nullopt;
    }
    if (sorted(found->enabled_events) != sorted(events_)) {
      if (!api_.update(found->id, events_, failed))
        return failure(failed);
      spdlog::info("{}: Stripe webhook endpoint {} now sends {}", name_, found->id,
                   fmt::join(events_, ", "));
    }
    spdlog::warn("{}: Stripe webhook endpoint {} for {} was already there; Stripe shows its "
                 "signing secret only when it is created, so Stripe-Signature is not checked "
                 "(delete the endpoint at Stripe to have it made again)",
                 name_, found->id, url_);
    return std::nullopt;
  }

  void remove() override {} // Argo leaves the endpoint at Stripe

private:
  std::optional<registration_failure> failure(const http::api_answer& failed) const {
    spdlog::warn("{}: Stripe webhook endpoint for {} not registered: {}", name_, url_,
                 failed.error);
    return registration_failure{"Stripe webhook endpoint: " + failed.error,
                                failed.status == 401 || failed.status == 403};
  }

  std::string name_;
  detail::endpoints_api api_;
  std::shared_ptr<signing_secret> secret_;
  std::string url_;
  std::vector<std::string> events_;
};

/// Argo's HandleRoute: the signature (when the secret is known), the event, the filter.
http::push_outcome handle(const http::request& req, const event_spec& spec,
                          const signing_secret& secret, std::chrono::seconds tolerance) {
  if (auto key = secret.get(); !key.empty())
    if (auto problem =
          detail::signature_problem(req.header("Stripe-Signature"), req.body, key, tolerance,
                                    std::chrono::system_clock::now()))
      return http::push_outcome::refuse(401, "signature", *problem);
  std::string error;
  auto event = detail::read_stripe_event(req.body, spec.metadata, error);
  if (!event)
    return http::push_outcome::refuse(400, "malformed", "failed to parse the event");
  if (spec.event_filter) {
    // Argo dereferences a null event here (a panic); it is refused instead.
    bool pass = event->present && std::find(spec.event_filter->begin(), spec.event_filter->end(),
                                            event->type) != spec.event_filter->end();
    if (!pass)
      return http::push_outcome::refuse(400, "filtered", "invalid event");
  }
  return http::push_outcome::publish(std::move(event->data));
}

std::unique_ptr<core::source> start_source(const std::shared_ptr<http::runtime>& rt,
                                           const options& opts, const core::source_context& ctx) {
  const auto& spec = core::spec_of<event_spec>(ctx);
  auto name = fmt::format("stripe source {}/{}", ctx.event_source_name, ctx.event_name);
  auto secret = std::make_shared<signing_secret>();
  std::shared_ptr<stripe_endpoint> endpoint;
  if (spec.create_webhook) {
    auto key = core::read_secret_or_throw<core::source_error>(ctx.secrets.get(), *spec.api_key,
                                                              "apiKey");
    endpoint = std::make_shared<stripe_endpoint>(
      name, spec, detail::endpoints_api(*rt->requests, opts.api_url, std::move(key),
                                        opts.request_timeout),
      secret);
  } else {
    spdlog::info("{}: no createWebhook: Stripe-Signature is not checked (Argo has no field for "
                 "an endpoint's signing secret)",
                 name);
  }
  http::push_route route{spec.webhook,
                         [spec, secret, tolerance = opts.tolerance](const http::request& req) {
                           return handle(req, spec, *secret, tolerance);
                         },
                         false};
  return http::start_hooked_source(*rt, ctx, std::move(route), std::move(endpoint),
                                   {.recheck = std::chrono::milliseconds{0},
                                    .first_retry = opts.first_retry,
                                    .max_retry = opts.max_retry,
                                    .first_delay = std::chrono::milliseconds{0},
                                    .attempts = opts.attempts,
                                    .rechecks = 0},
                                   false);
}

} // namespace

std::vector<std::string> check_source(const core::source_context& ctx) {
  return core::check_spec<event_spec>(ctx, [&](const event_spec& spec) {
    std::vector<std::string> problems;
    if (spec.create_webhook && !spec.api_key)
      problems.push_back(fmt::format("stripe source {}/{}: api key K8s secret selector not "
                                     "provided",
                                     ctx.event_source_name, ctx.event_name));
    return problems;
  });
}

core::source_factory make_source_factory(std::shared_ptr<http::runtime> rt, options opts) {
  return {[rt, opts](const core::source_context& ctx) { return start_source(rt, opts, ctx); },
          check_source, source_spec_step(rt && rt->listen.has_value())};
}

} // namespace ganglion::stripe
