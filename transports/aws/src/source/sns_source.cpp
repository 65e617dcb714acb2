// The `sns` source (Argo's awssns): the topic subscribed at start, SNS's deliveries served on the
// WebhookContext, the subscription confirmed, notifications published, unsubscribed at stop.

#include <mutex>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/credential_source.hpp"
#include "client/sns_api.hpp"
#include "ganglion/aws/spec.hpp"
#include "ganglion/aws/transport.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/http/hooked_source.hpp"
#include "ganglion/http/internal/provider_event_data.hpp"
#include "source/signing_certificates.hpp"
#include "source/sns_message.hpp"

namespace ganglion::aws {

namespace {

using http::push_outcome;

/// What a running sns source shares between its route, its registration and its stop.
struct sns_state {
  std::string name;
  sns_spec spec;
  std::weak_ptr<http::client> requests; ///< not owned: completions hold this state
  api_endpoint api;
  std::shared_ptr<credential_source> keys;
  std::chrono::milliseconds timeout;
  std::shared_ptr<signing_certificates> certificates;
  std::mutex mutex;
  std::string subscription_arn; ///< empty while SNS has not named it

  void set_arn(std::string arn) {
    std::lock_guard lock{mutex};
    subscription_arn = std::move(arn);
  }
  std::string arn() {
    std::lock_guard lock{mutex};
    return subscription_arn;
  }
  /// The client; throws std::runtime_error once it is shut down.
  std::shared_ptr<http::client> client() const {
    auto c = requests.lock();
    if (!c)
      throw std::runtime_error("the HTTP client is shut down");
    return c;
  }
};

/// Argo's PostActivate and PostInactivate: Subscribe at start, Unsubscribe at stop.
class sns_subscription final : public http::provider_hooks {
public:
  explicit sns_subscription(std::shared_ptr<sns_state> state) : state_(std::move(state)) {}

  std::optional<http::registration_failure> apply() override {
    const auto& s = *state_;
    auto url = http::formatted_url(s.spec.webhook.url, s.spec.webhook.endpoint);
    std::optional<http::client_response> reply;
    try {
      reply = call(*s.client(), subscribe_request(s.api, s.keys->wait(), s.spec.topic_arn, url,
                                                  s.timeout),
                   {});
    } catch (const std::exception& e) {
      spdlog::warn("{}: {}", s.name, e.what());
      return http::registration_failure{e.what(), false};
    }
    if (!reply || !succeeded(*reply)) {
      auto why = reply ? describe(*reply) : std::string("stopped");
      spdlog::warn("{}: subscribing {} to {} failed: {}", s.name, url, s.spec.topic_arn, why);
      return http::registration_failure{"SNS Subscribe: " + why,
                                        reply && refuses_credentials(*reply)};
    }
    // *ganglion*: Argo keeps only the ARN ConfirmSubscription returns, so a subscription SNS
    // had confirmed before (a restart) is never unsubscribed; the one Subscribe names is kept.
    if (auto arn = subscription_arn(*reply); arn.rfind("arn:", 0) == 0)
      state_->set_arn(arn);
    spdlog::info("{}: {} subscribed to {} ({})", s.name, url, s.spec.topic_arn,
                 subscription_arn(*reply));
    return std::nullopt;
  }

  void remove() override {
    const auto& s = *state_;
    auto arn = state_->arn();
    if (arn.empty()) {
      spdlog::info("{}: no confirmed subscription to {} to remove", s.name, s.spec.topic_arn);
      return;
    }
    std::optional<http::client_response> reply;
    try {
      reply = call(*s.client(), unsubscribe_request(s.api, s.keys->wait(), arn, s.timeout), {});
    } catch (const std::exception& e) {
      spdlog::warn("{}: unsubscribing {} failed: {}", s.name, arn, e.what());
      return;
    }
    if (reply && succeeded(*reply))
      spdlog::info("{}: unsubscribed {}", s.name, arn);
    else
      spdlog::warn("{}: unsubscribing {} failed: {}", s.name, arn,
                   reply ? describe(*reply) : std::string("stopped"));
  }

private:
  std::shared_ptr<sns_state> state_;
};

using outcome_sink = std::function<void(push_outcome)>;

/// Argo's ConfirmSubscription of a SubscriptionConfirmation, answered once SNS answered.
void confirm(const std::shared_ptr<sns_state>& state, const sns_message& m, outcome_sink done) {
  auto shared_done = std::make_shared<outcome_sink>(std::move(done));
  state->keys->get([state, token = m.token, shared_done](credentials keys, std::string error) {
    if (!error.empty())
      return (*shared_done)(push_outcome::refuse(503, "credentials", error));
    auto answered = [state, shared_done](http::client_response r) {
      if (!succeeded(r)) {
        auto why = describe(r);
        spdlog::error("{}: failed to send confirmation response to aws sns: {}", state->name,
                      why);
        return (*shared_done)(push_outcome::refuse(400, "subscription", why));
      }
      auto arn = subscription_arn(r);
      state->set_arn(arn);
      spdlog::info("{}: subscription successfully confirmed to aws sns ({})", state->name, arn);
      (*shared_done)(push_outcome::answer(http::text_response(200, "")));
    };
    auto request = confirm_request(state->api, keys, state->spec.topic_arn, token,
                                   state->timeout);
    bool submitted = false;
    if (auto client = state->requests.lock()) // released before the answer runs
      submitted = client->submit(std::move(request), answered);
    if (!submitted)
      (*shared_done)(
        push_outcome::refuse(503, "saturated", "the HTTP client is saturated; retry later"));
  });
}

/// What Argo makes of a delivery whose signature passed (or was not asked for).
void dispatch(const std::shared_ptr<sns_state>& state, const http::request& req,
              const sns_message& m, outcome_sink done) {
  if (m.type == "SubscriptionConfirmation")
    return confirm(state, m, std::move(done));
  if (m.type != "Notification") // UnsubscribeConfirmation: Argo answers 200 and drops it
    return done(push_outcome::answer(http::text_response(200, "")));
  std::string error;
  auto data = http::detail::provider_event_data(req, state->spec.metadata, error, "header");
  if (!data)
    return done(push_outcome::refuse(400, "bad_request", error));
  done(push_outcome::publish(std::move(*data)));
}

/// Argo's HandleRoute: the delivery read, its signature checked with `validateSignature`.
push_outcome handle(const std::shared_ptr<sns_state>& state, const http::request& req) {
  std::string error;
  auto m = parse_sns_message(req.body, error);
  if (!m)
    return push_outcome::refuse(400, "bad_request", error);
  if (!state->spec.validate_signature && m->type != "SubscriptionConfirmation") {
    push_outcome out; // known at once: nothing to fetch, nothing to ask SNS
    dispatch(state, req, *m, [&out](push_outcome known) { out = std::move(known); });
    return out;
  }
  return push_outcome::defer([state, req, m = *m](outcome_sink done) {
    if (!state->spec.validate_signature)
      return dispatch(state, req, m, std::move(done));
    auto url = m.signing_cert_url;
    state->certificates->get(url, [state, req, m, done = std::move(done)](std::string pem,
                                                                          std::string error) {
      if (error.empty())
        if (auto problem = sns_signature_problem(m, pem); !problem.empty())
          error = problem;
      if (!error.empty()) {
        spdlog::warn("{}: failed to verify sns message: {}", state->name, error);
        return done(push_outcome::refuse(401, "signature", error));
      }
      dispatch(state, req, m, done);
    });
  });
}

std::unique_ptr<core::source> start_sns_source(const std::shared_ptr<http::runtime>& rt,
                                               const options& opts,
                                               const std::shared_ptr<signing_certificates>& certs,
                                               const core::source_context& ctx) {
  const auto& spec = core::spec_of<sns_spec>(ctx);
  auto state = std::make_shared<sns_state>();
  state->name = fmt::format("sns source {}/{}", ctx.event_source_name, ctx.event_name);
  state->spec = spec;
  state->requests = rt->requests;
  state->api = make_endpoint(spec.endpoint, "sns", spec.region);
  state->timeout = opts.request_timeout;
  state->certificates = certs;
  try {
    state->keys = make_credential_source(spec, std::nullopt, ctx.secrets.get(),
                                         "sns." + ctx.event_name, rt->requests, opts.endpoint,
                                         opts.request_timeout);
  } catch (const std::exception& e) {
    throw core::source_error(fmt::format("{}: {}", state->name, e.what()));
  }
  http::push_route route{spec.webhook,
                         [state](const http::request& req) { return handle(state, req); }, false};
  // Argo subscribes once (PostActivate) and unsubscribes at every stop (PostInactivate).
  return http::start_hooked_source(*rt, ctx, std::move(route),
                                   std::make_shared<sns_subscription>(state),
                                   {.recheck = std::chrono::milliseconds{0},
                                    .first_retry = opts.min_retry_delay,
                                    .max_retry = opts.max_retry_delay,
                                    .first_delay = std::chrono::milliseconds{0},
                                    .attempts = 5,
                                    .rechecks = 0},
                                   true);
}

} // namespace

std::vector<std::string> check_sns_source(const core::source_context& ctx) {
  return core::check_spec<sns_spec>(ctx, [&](const sns_spec& spec) {
    std::vector<std::string> problems;
    auto name = fmt::format("sns source {}/{}", ctx.event_source_name, ctx.event_name);
    if (spec.topic_arn.empty())
      problems.push_back(name + ": must specify topic arn");
    if (spec.region.empty())
      problems.push_back(name + ": must specify region");
    return problems;
  });
}

core::source_factory make_sns_source_factory(std::shared_ptr<http::runtime> rt, options opts) {
  auto certs = std::make_shared<signing_certificates>(rt->requests, opts.sns_cert_hosts,
                                                      opts.sns_cert_ca_pem,
                                                      opts.request_timeout);
  return {[rt, opts, certs](const core::source_context& ctx) {
            return start_sns_source(rt, opts, certs, ctx);
          },
          check_sns_source, sns_spec_step(rt && rt->listen.has_value())};
}

} // namespace ganglion::aws
