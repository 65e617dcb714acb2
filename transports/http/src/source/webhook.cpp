#include "ganglion/http/webhook.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "ganglion/core/kind_check.hpp"
#include "ganglion/http/spec.hpp"
#include "ganglion/http/webhook_event.hpp"

namespace ganglion::http {

namespace {

constexpr const char* received_help = "Requests received by an event source";
constexpr const char* accepted_help = "Events an event source published to the bus";
constexpr const char* rejected_help = "Requests an event source refused, by reason";

/// Counters of one webhook, or nullptr when the engine has no metrics registry.
struct webhook_metrics {
  webhook_metrics(core::metrics_registry* registry, const std::string& source,
                  const std::string& event) {
    if (registry == nullptr)
      return;
    core::labels series{{"eventsource", source}, {"event", event}};
    received = &registry->get_counter("ganglion_events_received_total", received_help, series);
    accepted = &registry->get_counter("ganglion_events_accepted_total", accepted_help, series);
    for (const char* reason :
         {"bad_request", "unauthorized", "too_large", "method", "saturated", "stopped",
          "store_failed"}) {
      auto labelled = series;
      labelled.emplace_back("reason", reason);
      rejected.emplace(reason,
                       &registry->get_counter("ganglion_events_rejected_total", rejected_help,
                                              labelled));
    }
  }

  void count_received() const {
    if (received)
      received->inc();
  }
  void count_accepted() const {
    if (accepted)
      accepted->inc();
  }
  void count_rejected(const std::string& reason) const {
    if (auto i = rejected.find(reason); i != rejected.end())
      i->second->inc();
  }

  core::counter* received = nullptr;
  core::counter* accepted = nullptr;
  std::map<std::string, core::counter*> rejected;
};

/// What the request handler needs; shared with requests still in flight.
struct endpoint_state {
  std::string event_source;
  std::string event_name;
  std::string method;
  std::map<std::string, std::string> metadata;
  std::optional<std::string> token;
  std::shared_ptr<core::bus_publisher> bus;
  webhook_metrics metrics;
};

response refuse(const endpoint_state& state, int status, const std::string& reason,
                std::string message) {
  state.metrics.count_rejected(reason);
  return text_response(status, std::move(message));
}

/// Validates the request into an event, or answers the refusal.
std::optional<core::event> to_event(const endpoint_state& state, request&& req,
                                    const responder& reply) {
  state.metrics.count_received();
  if (state.token) {
    auto authorization = req.header("Authorization");
    static constexpr std::string_view bearer = "Bearer ";
    if (authorization.compare(0, bearer.size(), bearer) != 0) {
      reply(refuse(state, 401, "unauthorized", "Invalid Authorization Header"));
      return std::nullopt;
    }
    if (!core::constant_time_equal(authorization.substr(bearer.size()), *state.token)) {
      reply(refuse(state, 401, "unauthorized", "Invalid Auth token"));
      return std::nullopt;
    }
  }
  if (req.method != state.method) {
    auto r = refuse(state, 405, "method",
                    fmt::format("method {} is not allowed; use {}", req.method, state.method));
    r.headers.emplace_back("Allow", state.method);
    reply(std::move(r));
    return std::nullopt;
  }

  std::string error;
  auto e = webhook_event(state.event_source, state.event_name, req, state.metadata, error);
  if (!e)
    reply(refuse(state, 400, "bad_request", "the request body is not valid JSON: " + error));
  return e;
}

/// Answers the producer with the bus's verdict on its event.
response publish_response(const endpoint_state& state, core::publish_status status,
                          const std::string& error) {
  switch (status) {
    case core::publish_status::accepted:
      state.metrics.count_accepted();
      return text_response(200, "success");
    case core::publish_status::filtered: // Argo answers success; the core's filter counted it
      return text_response(200, "success");
    case core::publish_status::saturated: {
      auto r =
        refuse(state, 503, core::to_string(status), "the event bus is saturated; retry later");
      r.headers.emplace_back("Retry-After", "1");
      return r;
    }
    case core::publish_status::failed: {
      auto r = refuse(state, 503, core::to_string(status),
                      "the event bus could not store the event (" + error + "); retry later");
      r.headers.emplace_back("Retry-After", "1");
      return r;
    }
    case core::publish_status::stopped:
      break;
  }
  auto r = refuse(state, 503, core::to_string(core::publish_status::stopped),
                  "the event source is stopping; retry later");
  r.headers.emplace_back("Retry-After", "1");
  return r;
}

void handle(const std::shared_ptr<endpoint_state>& state, request&& req, responder reply) {
  auto e = to_event(*state, std::move(req), reply);
  if (!e)
    return;
  // The producer hears 200 only once the bus holds the event (durably, when it is durable).
  state->bus->publish(std::move(*e),
                      [state, reply](core::publish_status status, const std::string& error) {
                        reply(publish_response(*state, status, error));
                      });
}

std::uint16_t parse_port(const std::string& text) {
  unsigned value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size() || value == 0 ||
      value > 65535)
    throw core::source_error(fmt::format("invalid webhook port '{}': expected 1-65535", text));
  return static_cast<std::uint16_t>(value);
}

std::string read_secret(const core::source_context& ctx, const dsl::secret_key_selector& ref) {
  if (!ctx.secrets)
    throw core::source_error(
      fmt::format("secret {}/{} is needed but no secret store is configured", ref.name, ref.key));
  std::string error;
  auto value = ctx.secrets->read(ref.name, ref.key, &error);
  if (!value)
    throw core::source_error(error);
  return *value;
}

/// A running webhook: its registered route.
class webhook_source final : public core::source {
public:
  explicit webhook_source(route r) : route_(std::move(r)) {}

private:
  route route_;
};

std::unique_ptr<core::source> start_webhook(server_pool& servers, const std::string& bind_host,
                                            const std::optional<listen_address>& listen,
                                            const core::source_context& ctx) {
  if (!ctx.bus)
    throw core::source_error("webhook source started without a bus");
  const auto& spec = core::spec_of<webhook_spec>(ctx);
  auto port = listen ? listen->port : parse_port(spec.port);
  const auto& host = listen ? listen->host : bind_host;

  auto state = std::make_shared<endpoint_state>(endpoint_state{
    ctx.event_source_name, ctx.event_name, spec.method, spec.metadata, std::nullopt, ctx.bus,
    webhook_metrics{ctx.metrics, ctx.event_source_name, ctx.event_name}});
  std::transform(state->method.begin(), state->method.end(), state->method.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (spec.auth_secret)
    state->token = read_secret(ctx, *spec.auth_secret);

  route_options options;
  options.body_limit = static_cast<std::size_t>(spec.max_payload_size);
  options.on_too_large = [state] {
    state->metrics.count_received();
    state->metrics.count_rejected("too_large");
  };
  if (spec.server_cert_secret && !listen)
    options.tls = tls_identity{read_secret(ctx, *spec.server_cert_secret),
                               read_secret(ctx, *spec.server_key_secret)};

  auto scheme = options.tls ? "https" : "http";
  try {
    auto r = servers.add_route(host, port, spec.endpoint,
                               [state](request&& req, responder reply) {
                                 handle(state, std::move(req), std::move(reply));
                               },
                               std::move(options));
    spdlog::info("webhook source {}/{}: listening on {}://{}{}", ctx.event_source_name,
                 ctx.event_name, scheme, r.address(), spec.endpoint);
    return std::make_unique<webhook_source>(std::move(r));
  } catch (const server_error& e) {
    throw core::source_error(e.what());
  }
}

} // namespace

std::vector<std::string> check_webhook_source(const core::source_context& ctx) {
  return core::check_spec<webhook_spec>(ctx, [&](const auto& spec) {
    std::vector<std::string> problems;
    if (spec.endpoint.empty() || spec.endpoint.front() != '/')
      problems.push_back(fmt::format("webhook endpoint must start with '/': '{}'", spec.endpoint));
    if (spec.method.empty())
      problems.emplace_back("webhook method can't be empty");
    if (spec.max_payload_size <= 0 || spec.max_payload_size > webhook_spec::max_payload_limit)
      problems.push_back(fmt::format("webhook maxPayloadSize must be from 1 to {}, got {}",
                                     webhook_spec::max_payload_limit, spec.max_payload_size));
    try {
      parse_port(spec.port);
    } catch (const core::source_error& e) {
      problems.emplace_back(e.what());
    }
    if (spec.server_cert_secret.has_value() != spec.server_key_secret.has_value())
      problems.emplace_back("webhook TLS needs both serverCertSecret and serverKeySecret");
    return problems;
  });
}

core::source_factory make_webhook_source_factory(std::shared_ptr<server_pool> servers,
                                                 std::string bind_host,
                                                 std::optional<listen_address> listen) {
  auto one_port = listen.has_value();
  return {[servers = std::move(servers), bind_host = std::move(bind_host),
           listen = std::move(listen)](const core::source_context& ctx) {
            return start_webhook(*servers, bind_host, listen, ctx);
          },
          check_webhook_source, webhook_spec_step(one_port)};
}

} // namespace ganglion::http
