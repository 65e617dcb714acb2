#include "ganglion/http/push_source.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "ganglion/core/event.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/read_secret.hpp"
#include "ganglion/core/secrets.hpp"

namespace ganglion::http {

namespace {

constexpr const char* received_help = "Requests received by an event source";
constexpr const char* accepted_help = "Events an event source published to the bus";
constexpr const char* rejected_help = "Requests an event source refused, by reason";
constexpr std::string_view masked_authorization = "*** Masked Auth Secret ***";

/// Counters of one push source; none when the engine has no metrics registry.
class push_metrics {
public:
  push_metrics(core::metrics_registry* registry, const std::string& source,
               const std::string& event)
    : registry_(registry), series_{{"eventsource", source}, {"event", event}} {
    if (registry_ == nullptr)
      return;
    received_ = &registry_->get_counter("ganglion_events_received_total", received_help, series_);
    accepted_ = &registry_->get_counter("ganglion_events_accepted_total", accepted_help, series_);
    for (const char* reason : {"bad_request", "unauthorized", "too_large", "method", "saturated",
                               "stopped", "store_failed"})
      rejected(reason);
  }

  void count_received() const {
    if (received_)
      received_->inc();
  }
  void count_accepted() const {
    if (accepted_)
      accepted_->inc();
  }
  void count_rejected(const std::string& reason) {
    if (auto* c = rejected(reason))
      c->inc();
  }

private:
  core::counter* rejected(const std::string& reason) {
    if (registry_ == nullptr)
      return nullptr;
    std::lock_guard lock{mutex_};
    auto& slot = rejected_[reason];
    if (slot == nullptr) {
      auto labelled = series_;
      labelled.emplace_back("reason", reason);
      slot = &registry_->get_counter("ganglion_events_rejected_total", rejected_help, labelled);
    }
    return slot;
  }

  core::metrics_registry* registry_;
  core::labels series_;
  core::counter* received_ = nullptr;
  core::counter* accepted_ = nullptr;
  std::mutex mutex_;
  std::map<std::string, core::counter*> rejected_;
};

/// What the request handler needs; shared with requests still in flight.
struct endpoint_state {
  endpoint_state(const core::source_context& ctx, const push_route& route)
    : event_source(ctx.event_source_name), event_name(ctx.event_name), type(ctx.type),
      method(route.webhook.method), check_method(route.check_method), handle(route.handle),
      bus(ctx.bus), metrics(ctx.metrics, ctx.event_source_name, ctx.event_name) {
    std::transform(method.begin(), method.end(), method.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  }

  std::string event_source;
  std::string event_name;
  std::string type;
  std::string method;
  bool check_method = false;
  std::optional<std::string> token;
  push_handler handle;
  std::shared_ptr<core::bus_publisher> bus;
  push_metrics metrics;
};

response refuse(endpoint_state& state, int status, const std::string& reason,
                std::string message) {
  state.metrics.count_rejected(reason);
  return text_response(status, std::move(message));
}

/// Argo's router: the bearer token of authSecret, then the Authorization header masked.
std::optional<response> check_authorization(endpoint_state& state, request& req) {
  if (state.token) {
    auto authorization = req.header("Authorization");
    static constexpr std::string_view bearer = "Bearer ";
    if (authorization.compare(0, bearer.size(), bearer) != 0)
      return refuse(state, 401, "unauthorized", "Invalid Authorization Header");
    if (!core::constant_time_equal(authorization.substr(bearer.size()), *state.token))
      return refuse(state, 401, "unauthorized", "Invalid Auth token");
  }
  for (auto& [name, value] : req.headers)
    if (std::equal(name.begin(), name.end(), "authorization", "authorization" + 13,
                   [](char a, char b) { return std::tolower(static_cast<unsigned char>(a)) == b; })
        && !value.empty())
      value = masked_authorization;
  return std::nullopt;
}

response with_retry_after(response r) {
  r.headers.emplace_back("Retry-After", "1");
  return r;
}

/// Answers the producer with the bus's verdict on its event.
response publish_response(endpoint_state& state, core::publish_status status,
                          const std::string& error, const std::optional<response>& accepted) {
  switch (status) {
    case core::publish_status::accepted:
      state.metrics.count_accepted();
      return accepted ? *accepted : text_response(200, "success");
    case core::publish_status::filtered: // Argo answers success; the core's filter counted it
      return accepted ? *accepted : text_response(200, "success");
    case core::publish_status::saturated:
      return with_retry_after(refuse(state, 503, core::to_string(status),
                                     "the event bus is saturated; retry later"));
    case core::publish_status::failed:
      return with_retry_after(
        refuse(state, 503, core::to_string(status),
               "the event bus could not store the event (" + error + "); retry later"));
    case core::publish_status::stopped:
      break;
  }
  return with_retry_after(refuse(state, 503, core::to_string(core::publish_status::stopped),
                                 "the event source is stopping; retry later"));
}

void finish(const std::shared_ptr<endpoint_state>& state, push_outcome&& outcome,
            const responder& reply);

/// The bus's answers to the events of one request, gathered.
struct batch_answers {
  std::mutex mutex;
  std::size_t left = 0;
  core::publish_status refused = core::publish_status::accepted;
  std::string error;
};

/// Publishes each of `data` (one event, or a kind's several of one request), and answers once
/// the bus answered all: `accepted` when it took every one, else as publish_response answers the
/// first refusal.
void publish_all(const std::shared_ptr<endpoint_state>& state, std::vector<std::string> data,
                 std::optional<response> accepted, const responder& reply) {
  if (data.empty()) {
    reply(accepted ? *accepted : text_response(200, "success"));
    return;
  }
  auto answers = std::make_shared<batch_answers>();
  answers->left = data.size();
  for (auto& one : data) {
    auto e = core::make_event(state->event_source, state->type, state->event_name, std::move(one));
    state->bus->publish(std::move(e), [state, reply, accepted, answers](core::publish_status status,
                                                                        const std::string& error) {
      bool taken = status == core::publish_status::accepted
                   || status == core::publish_status::filtered;
      if (status == core::publish_status::accepted)
        state->metrics.count_accepted();
      std::unique_lock lock{answers->mutex};
      if (!taken && answers->refused == core::publish_status::accepted) {
        answers->refused = status;
        answers->error = error;
      }
      if (--answers->left > 0)
        return;
      auto refused = answers->refused;
      auto why = answers->error;
      lock.unlock();
      if (refused == core::publish_status::accepted)
        reply(accepted ? *accepted : text_response(200, "success"));
      else
        reply(publish_response(*state, refused, why, accepted));
    });
  }
}

void handle(const std::shared_ptr<endpoint_state>& state, request&& req, const responder& reply) {
  state->metrics.count_received();
  if (auto refused = check_authorization(*state, req)) {
    reply(std::move(*refused));
    return;
  }
  if (state->check_method && req.method != state->method) {
    auto r = refuse(*state, 405, "method",
                    fmt::format("method {} is not allowed; use {}", req.method, state->method));
    r.headers.emplace_back("Allow", state->method);
    reply(std::move(r));
    return;
  }
  finish(state, state->handle(req), reply);
}

/// Answers (or publishes) what the kind made of a request, once it is known.
void finish(const std::shared_ptr<endpoint_state>& state, push_outcome&& outcome,
            const responder& reply) {
  if (outcome.later) {
    auto later = std::move(outcome.later);
    later([state, reply](push_outcome known) { finish(state, std::move(known), reply); });
    return;
  }
  if (outcome.batch) {
    publish_all(state, std::move(*outcome.batch), std::move(outcome.accepted), reply);
    return;
  }
  if (!outcome.data) {
    if (!outcome.rejected_reason.empty())
      state->metrics.count_rejected(outcome.rejected_reason);
    reply(std::move(outcome.reply));
    return;
  }
  // The producer hears 200 only once the bus holds the event (durably, when it is durable).
  publish_all(state, {std::move(*outcome.data)}, std::move(outcome.accepted), reply);
}

/// A running push source: its registered route.
class push_source final : public core::source {
public:
  explicit push_source(route r) : route_(std::move(r)) {}

private:
  route route_;
};

} // namespace

push_outcome push_outcome::publish(std::string data) {
  push_outcome out;
  out.data = std::move(data);
  return out;
}

push_outcome push_outcome::publish_all(std::vector<std::string> data) {
  push_outcome out;
  out.batch = std::move(data);
  return out;
}

push_outcome push_outcome::refuse(int status, std::string reason, std::string message) {
  push_outcome out;
  out.reply = text_response(status, std::move(message));
  out.rejected_reason = std::move(reason);
  return out;
}

push_outcome push_outcome::answer(response reply) {
  push_outcome out;
  out.reply = std::move(reply);
  return out;
}

push_outcome push_outcome::defer(std::function<void(std::function<void(push_outcome)>)> work) {
  push_outcome out;
  out.later = std::move(work);
  return out;
}

std::unique_ptr<core::source> start_push_source(const runtime& rt,
                                                const core::source_context& ctx,
                                                push_route route) {
  return start_push_source(*rt.servers, rt.bind_host, rt.listen, ctx, std::move(route));
}

std::unique_ptr<core::source> start_push_source(server_pool& servers,
                                                const std::string& bind_host,
                                                const std::optional<listen_address>& listen,
                                                const core::source_context& ctx,
                                                push_route push) {
  if (!ctx.bus)
    throw core::source_error(ctx.type + " source started without a bus");
  const auto& spec = push.webhook;
  auto manifest_port = parse_port(spec.port);
  if (!listen && !manifest_port)
    throw core::source_error(fmt::format("invalid webhook port '{}': expected 1-65535", spec.port));
  auto port = listen ? listen->port : *manifest_port;
  const auto& host = listen ? listen->host : bind_host;

  auto state = std::make_shared<endpoint_state>(ctx, push);
  auto secret = [&](const dsl::secret_key_selector& ref, const char* field) {
    return core::read_secret_or_throw<core::source_error>(ctx.secrets.get(), ref,
                                                          std::string{"webhook."} + field);
  };
  if (spec.auth_secret)
    state->token = secret(*spec.auth_secret, "authSecret");

  route_options options;
  options.body_limit = static_cast<std::size_t>(spec.max_payload_size);
  options.on_too_large = [state] {
    state->metrics.count_received();
    state->metrics.count_rejected("too_large");
  };
  if (spec.server_cert_secret && spec.server_key_secret && !listen)
    options.tls = tls_identity{secret(*spec.server_cert_secret, "serverCertSecret"),
                               secret(*spec.server_key_secret, "serverKeySecret")};

  auto scheme = options.tls ? "https" : "http";
  try {
    auto r = servers.add_route(host, port, spec.endpoint,
                                   [state](request&& req, responder reply) {
                                     handle(state, std::move(req), reply);
                                   },
                                   std::move(options));
    spdlog::info("{} source {}/{}: listening on {}://{}{}", ctx.type, ctx.event_source_name,
                 ctx.event_name, scheme, r.address(), spec.endpoint);
    return std::make_unique<push_source>(std::move(r));
  } catch (const server_error& e) {
    throw core::source_error(e.what());
  }
}

} // namespace ganglion::http
