// The `redis` event source: one Pub/Sub connection per event, SUBSCRIBEd to its channels.

#include <atomic>
#include <memory>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>

#include "client/credentials.hpp"
#include "ganglion/core/event.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/core/internal/refusal_spell.hpp"
#include "ganglion/core/internal/source_counters.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/redis/transport.hpp"
#include "source/event_data.hpp"
#include "source/source_loop.hpp"

namespace ganglion::redis {

namespace {

/// What the serving thread and the publish outcomes share.
struct pubsub_state : std::enable_shared_from_this<pubsub_state> {
  pubsub_state(const core::source_context& ctx, const event_spec& spec)
    : name(fmt::format("redis source {}/{}", ctx.event_source_name, ctx.event_name)),
      event_source(ctx.event_source_name), event_name(ctx.event_name), spec(spec), bus(ctx.bus),
      metrics(ctx.metrics, ctx.event_source_name, ctx.event_name) {}

  void on_message(const std::string& channel, const std::string& payload);

  std::string name;
  std::string event_source;
  std::string event_name;
  event_spec spec;
  std::shared_ptr<core::bus_publisher> bus;
  /// A message the bus refused is lost (Pub/Sub keeps none).
  core::message_source_counters metrics;
  core::log_throttle invalid_log;
  core::refusal_spell refusals{
    name, "Redis Pub/Sub cannot redeliver, so messages are dropped until the bus accepts again"};
};

void pubsub_state::on_message(const std::string& channel, const std::string& payload) {
  metrics.received();
  std::string error;
  auto data = pubsub_event_data(channel, "", payload, spec.json_body, spec.metadata, error);
  if (!data) {
    metrics.rejected("invalid_json");
    std::uint64_t held_back = 0;
    if (invalid_log.allow(held_back))
      spdlog::error("{}: message on {} dropped: {} (jsonBody is set){}", name, channel, error,
                    core::held_back_note(held_back));
    return;
  }
  bus->publish(core::make_event(event_source, "redis", event_name, std::move(*data)),
               [self = shared_from_this()](core::publish_status status, const std::string& e) {
                 self->refusals.record(status, e, self->metrics);
               });
}

/// SUBSCRIBE and its confirmations, one per channel.
void subscribe(connection& conn, const event_spec& spec, std::chrono::milliseconds timeout) {
  std::vector<std::string> args{"SUBSCRIBE"};
  args.insert(args.end(), spec.channels.begin(), spec.channels.end());
  conn.send(args);
  for (std::size_t i = 0; i < spec.channels.size(); ++i) {
    auto r = conn.read(timeout);
    if (!r)
      throw connection_error(fmt::format("{}: no confirmation of SUBSCRIBE", conn.address()));
    if (r->is_error() || r->kind != reply::type::array || r->elements.empty()
        || r->elements[0].text != "subscribe")
      throw connection_error(
        fmt::format("{}: SUBSCRIBE failed: {}", conn.address(), describe(*r)));
  }
}

/// Reads messages until stopping; a silent connection is probed with PING.
void serve(connection& conn, pubsub_state& st, source_loop& loop, const options& opts) {
  bool ping_sent = false;
  while (!loop.stopping()) {
    auto r = conn.read(opts.ping_interval);
    if (!r) {
      if (loop.stopping())
        return;
      if (ping_sent)
        throw connection_error(fmt::format("no answer to PING within {} ms",
                                           opts.ping_interval.count()));
      conn.send({"PING"});
      ping_sent = true;
      continue;
    }
    ping_sent = false;
    if (r->kind != reply::type::array || r->elements.empty())
      continue;
    const auto& kind = r->elements[0].text;
    if (kind == "message" && r->elements.size() == 3)
      st.on_message(r->elements[1].text, r->elements[2].text);
    else if (kind == "pmessage" && r->elements.size() == 4)
      st.on_message(r->elements[2].text, r->elements[3].text);
  }
}

/// A running redis source.
class pubsub_source final : public core::source {
public:
  pubsub_source(std::shared_ptr<pubsub_state> state, server_settings settings,
                const options& opts, const core::source_context& ctx)
    : state_(std::move(state)), opts_(opts) {
    source_loop::hooks hooks;
    auto* st = state_.get();
    hooks.prepare = [st, timeout = opts.connect_timeout](connection& c) {
      subscribe(c, st->spec, timeout);
    };
    hooks.serve = [this, st](connection& c) { serve(c, *st, *loop_, opts_); };
    loop_ = std::make_unique<source_loop>(state_->name, std::move(settings), opts,
                                          std::move(hooks), ctx.fail, state_->metrics);
    loop_->start();
  }

private:
  std::shared_ptr<pubsub_state> state_;
  options opts_;
  std::unique_ptr<source_loop> loop_;
};

std::unique_ptr<core::source> start_source(const options& opts, const core::source_context& ctx) {
  const auto& spec = core::spec_of<event_spec>(ctx);
  if (!ctx.bus)
    throw core::source_error("redis source started without a bus");
  auto state = std::make_shared<pubsub_state>(ctx, spec);
  try {
    auto settings = resolve_server(spec, ctx.secrets.get(), "redis." + ctx.event_name);
    auto source = std::make_unique<pubsub_source>(state, std::move(settings), opts, ctx);
    spdlog::info("{}: subscribed to {} on {}", state->name, fmt::join(spec.channels, ", "),
                 spec.host_address);
    return source;
  } catch (const connection_error& e) {
    throw core::source_error(fmt::format("{}: {}", state->name, e.what()));
  }
}

} // namespace

std::vector<std::string> check_source(const core::source_context& ctx) {
  return core::check_spec<event_spec>(ctx, [&](const auto& spec) {
    auto name = fmt::format("redis source {}/{}", ctx.event_source_name, ctx.event_name);
    std::vector<std::string> problems;
    if (spec.host_address.empty())
      problems.push_back(fmt::format("{}: host address must be specified", name));
    if (spec.channels.empty())
      problems.push_back(fmt::format("{}: channel/s must be specified", name));
    return problems;
  });
}

core::source_factory make_source_factory(options opts) {
  return {[opts](const core::source_context& ctx) { return start_source(opts, ctx); },
          check_source, source_spec_step()};
}

} // namespace ganglion::redis
