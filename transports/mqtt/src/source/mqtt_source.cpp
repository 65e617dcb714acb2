// The `mqtt` event source: one libmosquitto client and subscription per event.

#include <atomic>
#include <memory>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/broker_url.hpp"
#include "client/client_settings.hpp"
#include "client/session.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/core/internal/refusal_spell.hpp"
#include "ganglion/core/internal/source_counters.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/mqtt/transport.hpp"
#include "source/event_data.hpp"

namespace ganglion::mqtt {

namespace {

std::string source_name(const core::source_context& ctx) {
  return fmt::format("mqtt source {}/{}", ctx.event_source_name, ctx.event_name);
}

/// What the message callback needs. Shared with publish outcomes still in flight.
struct source_state : std::enable_shared_from_this<source_state> {
  source_state(const core::source_context& ctx, const event_spec& spec)
    : name(source_name(ctx)), event_source(ctx.event_source_name), event_name(ctx.event_name),
      json_body(spec.json_body), metadata(spec.metadata), bus(ctx.bus),
      metrics(ctx.metrics, ctx.event_source_name, ctx.event_name) {}

  void on_message(std::string_view topic, int mid, std::string_view payload);

  std::string name;
  std::string event_source;
  std::string event_name;
  bool json_body;
  std::map<std::string, std::string> metadata;
  std::shared_ptr<core::bus_publisher> bus;
  /// A message the bus refused is dropped: QoS 0 cannot redeliver it.
  core::message_source_counters metrics;
  core::log_throttle invalid_log;
  core::refusal_spell refusals{
    name, "MQTT QoS 0 cannot redeliver, so messages are dropped until the bus accepts again"};
};

void source_state::on_message(std::string_view topic, int mid, std::string_view payload) {
  metrics.received();
  std::string error;
  auto data = mqtt_event_data(topic, mid, payload, json_body, metadata, error);
  if (!data) {
    metrics.rejected("invalid_json");
    std::uint64_t held_back = 0;
    if (invalid_log.allow(held_back))
      spdlog::error("{}: message on {} dropped: {} (jsonBody is set){}", name, topic, error,
                    core::held_back_note(held_back));
    return;
  }
  bus->publish(core::make_event(event_source, "mqtt", event_name, std::move(*data)),
               [self = shared_from_this()](core::publish_status status, const std::string& e) {
                 self->refusals.record(status, e, self->metrics);
               });
}

/// A running mqtt source: its client session (stopped first: no callback runs after).
class mqtt_source final : public core::source {
public:
  mqtt_source(std::shared_ptr<source_state> state, client_settings settings,
              session_options options)
    : state_(std::move(state)), session_(std::move(settings), std::move(options)) {}

private:
  std::shared_ptr<source_state> state_;
  session session_;
};

std::unique_ptr<core::source> start_source(const options& opts, const core::source_context& ctx) {
  const auto& spec = core::spec_of<event_spec>(ctx);
  if (!ctx.bus)
    throw core::source_error("mqtt source started without a bus");
  auto state = std::make_shared<source_state>(ctx, spec);
  try {
    auto settings = resolve_settings(spec, ctx.secrets.get());
    session_options so;
    so.name = state->name;
    so.topic = spec.topic;
    so.keepalive_seconds = opts.keepalive_seconds;
    so.connect_timeout = opts.connect_timeout;
    so.first_connect = core::retry_schedule{
      spec.connection_backoff ? spec.connection_backoff : std::optional{dsl::backoff{}}};
    so.min_reconnect_delay = opts.min_reconnect_delay;
    so.max_reconnect_delay = opts.max_reconnect_delay;
    so.on_message = [raw = state.get()](std::string_view topic, int mid,
                                        std::string_view payload) {
      raw->on_message(topic, mid, payload);
    };
    so.on_subscribed = [raw = state.get(), connected = ctx.connected](bool again) {
      if (again)
        raw->metrics.reconnected();
      if (connected)
        connected();
    };
    so.on_failed = ctx.fail;
    return std::make_unique<mqtt_source>(state, std::move(settings), std::move(so));
  } catch (const connection_error& e) {
    throw core::source_error(fmt::format("{}: {}", state->name, e.what()));
  }
}

} // namespace

std::vector<std::string> check_source(const core::source_context& ctx) {
  return core::check_spec<event_spec>(ctx, [&](const auto& spec) {
    auto name = source_name(ctx);
    std::vector<std::string> problems;
    if (spec.url.empty()) {
      problems.push_back(fmt::format("{}: url can't be empty", name));
    } else {
      std::string error;
      if (!parse_broker_url(spec.url, error))
        problems.push_back(fmt::format("{}: url {}: {}", name, spec.url, error));
    }
    if (spec.topic.empty())
      problems.push_back(fmt::format("{}: topic can't be empty", name));
    if (spec.client_id.empty())
      problems.push_back(fmt::format("{}: clientId can't be empty", name));
    return problems;
  });
}

core::source_factory make_source_factory(options opts) {
  core::source_factory factory{
    [opts](const core::source_context& ctx) { return start_source(opts, ctx); }, check_source,
    source_spec_step()};
  return factory.pending_until_connected([](const core::source_context& ctx) {
    return "connecting to " + core::spec_of<event_spec>(ctx).url;
  });
}

} // namespace ganglion::mqtt
