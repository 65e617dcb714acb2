// The `nats` event source: one core NATS subscription per event.

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/connection.hpp"
#include "source/event_data.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/core/internal/refusal_spell.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/nats/transport.hpp"
#include "source/source_metrics.hpp"

namespace ganglion::nats {

namespace {

header_map read_headers(natsMsg* msg) {
  header_map headers;
  const char** keys = nullptr;
  int count = 0;
  if (natsMsgHeader_Keys(msg, &keys, &count) != NATS_OK)
    return headers;
  for (int i = 0; i < count; ++i) {
    const char** values = nullptr;
    int n = 0;
    if (natsMsgHeader_Values(msg, keys[i], &values, &n) != NATS_OK)
      continue;
    auto& list = headers[keys[i]];
    for (int j = 0; j < n; ++j)
      list.emplace_back(values[j]);
    std::free(static_cast<void*>(values));
  }
  std::free(static_cast<void*>(keys));
  return headers;
}

/// What the message callback needs. Shared with publish outcomes still in flight.
struct source_state : std::enable_shared_from_this<source_state> {
  source_state(const core::source_context& ctx, const event_spec& spec, const options& opts)
    : name(fmt::format("nats source {}/{}", ctx.event_source_name, ctx.event_name)),
      event_source(ctx.event_source_name), event_name(ctx.event_name),
      json_body(spec.json_body), metadata(spec.metadata), bus(ctx.bus),
      metrics(ctx.metrics, ctx.event_source_name, ctx.event_name),
      pending_limit(opts.pending_messages) {}

  void on_message(natsSubscription* sub, natsMsg* msg);
  void on_async_error(natsStatus status);
  /// Counts what the library dropped (every drop leaves a full queue behind it, so the next
  /// messages count it), and notes when the subscription has caught up.
  void count_drops(natsSubscription* sub);

  std::string name;
  std::string event_source;
  std::string event_name;
  bool json_body;
  std::map<std::string, std::string> metadata;
  std::shared_ptr<core::bus_publisher> bus;
  source_metrics metrics;
  int pending_limit;

  std::atomic<bool> behind{false};
  /// The subscription while it exists, for ganglion_source_lag (messages waiting in its queue).
  std::mutex subscription_mutex;
  natsSubscription* subscription = nullptr;
  std::atomic<std::int64_t> drops_counted{0};
  core::refusal_spell refusals{
    name, "core NATS cannot redeliver, so messages are dropped until the bus accepts again"};
  core::log_throttle invalid_log;

  std::mutex mutex;
  std::condition_variable completed_changed;
  bool completed = false; ///< the subscription's last callback has returned
  std::set<natsStatus> reported;
};

void source_state::on_message(natsSubscription* sub, natsMsg* msg) {
  count_drops(sub);
  metrics.received();
  const char* bytes = natsMsg_GetData(msg);
  std::string_view payload{bytes != nullptr ? bytes : "",
                           static_cast<std::size_t>(natsMsg_GetDataLength(msg))};
  std::string error;
  auto data = nats_event_data(natsMsg_GetSubject(msg), payload, read_headers(msg), json_body,
                              metadata, error);
  std::uint64_t held_back = 0;
  if (!data) {
    metrics.rejected("invalid_json");
    if (invalid_log.allow(held_back))
      spdlog::error("{}: message on {} dropped: {} (jsonBody is set){}", name,
                    natsMsg_GetSubject(msg), error, core::held_back_note(held_back));
    return;
  }
  bus->publish(core::make_event(event_source, "nats", event_name, std::move(*data)),
               [self = shared_from_this()](core::publish_status status, const std::string& error) {
                 self->refusals.record(status, error, self->metrics);
               });
}

void source_state::on_async_error(natsStatus status) {
  if (status == NATS_SLOW_CONSUMER) {
    if (!behind.exchange(true))
      spdlog::warn("{}: falling behind: {} messages are buffered; newer ones are dropped until "
                   "it catches up (ganglion_events_rejected_total{{reason=\"slow_consumer\"}})",
                   name, pending_limit);
    return;
  }
  {
    std::lock_guard guard{mutex};
    if (!reported.insert(status).second)
      return;
  }
  spdlog::warn("{}: {}", name, natsStatus_GetText(status));
}

void source_state::count_drops(natsSubscription* sub) {
  std::int64_t dropped = 0;
  if (natsSubscription_GetDropped(sub, &dropped) != NATS_OK)
    return;
  if (dropped > drops_counted.load(std::memory_order_relaxed)) {
    auto before = drops_counted.exchange(dropped);
    if (dropped > before)
      metrics.rejected("slow_consumer", static_cast<std::uint64_t>(dropped - before));
  }
  int messages = 0, bytes = 0;
  if (behind.load(std::memory_order_relaxed) &&
      natsSubscription_GetPending(sub, &messages, &bytes) == NATS_OK &&
      messages < pending_limit / 2)
    behind = false;
}

void deliver(natsConnection*, natsSubscription* sub, natsMsg* msg, void* closure) {
  std::unique_ptr<natsMsg, decltype(&natsMsg_Destroy)> owned{msg, &natsMsg_Destroy};
  static_cast<source_state*>(closure)->on_message(sub, msg);
}

void on_complete(void* closure) {
  auto* st = static_cast<source_state*>(closure);
  std::lock_guard guard{st->mutex};
  st->completed = true;
  st->completed_changed.notify_all();
}

/// A running nats source: its connection and subscription.
class nats_source final : public core::source {
public:
  nats_source(std::shared_ptr<source_state> state, std::unique_ptr<connection> conn,
              natsSubscription* sub)
    : state_(std::move(state)), connection_(std::move(conn)), sub_(sub) {
    {
      std::lock_guard guard{state_->subscription_mutex};
      state_->subscription = sub_;
    }
    state_->metrics.track_lag([state = state_]() -> std::int64_t {
      std::lock_guard guard{state->subscription_mutex};
      int messages = 0;
      int bytes = 0;
      if (!state->subscription
          || natsSubscription_GetPending(state->subscription, &messages, &bytes) != NATS_OK)
        return 0;
      return messages;
    });
  }

  ~nats_source() override {
    {
      std::lock_guard guard{state_->subscription_mutex};
      state_->subscription = nullptr;
    }
    state_->count_drops(sub_);
    natsSubscription_Unsubscribe(sub_);
    bool completed;
    {
      std::unique_lock lock{state_->mutex};
      completed = state_->completed_changed.wait_for(lock, std::chrono::seconds(10),
                                                     [this] { return state_->completed; });
    }
    natsSubscription_Destroy(sub_);
    connection_.reset();
    if (!completed) {
      // A message callback may still run: keep its state alive for good.
      spdlog::warn("{}: the subscription did not confirm its end", state_->name);
      static_cast<void>(new std::shared_ptr<source_state>(state_));
    }
  }

private:
  std::shared_ptr<source_state> state_;
  std::unique_ptr<connection> connection_;
  natsSubscription* sub_;
};

std::unique_ptr<core::source> start_source(const options& opts, const core::source_context& ctx) {
  const auto& spec = core::spec_of<event_spec>(ctx);
  if (!ctx.bus)
    throw core::source_error("nats source started without a bus");
  auto state = std::make_shared<source_state>(ctx, spec, opts);

  connection_settings settings;
  settings.url = spec.url;
  settings.name = state->name;
  settings.connect_timeout = opts.connect_timeout;
  settings.min_reconnect_delay = opts.min_reconnect_delay;
  settings.max_reconnect_delay = opts.max_reconnect_delay;
  settings.on_lost = ctx.fail;
  settings.on_async_error = [raw = state.get()](natsSubscription*, natsStatus status) {
    raw->on_async_error(status);
  };
  std::unique_ptr<connection> conn;
  try {
    if (spec.auth)
      settings.auth = resolve_credentials(*spec.auth, ctx.secrets.get(), "nats.auth");
    if (spec.tls)
      settings.tls = resolve_tls(*spec.tls, ctx.secrets.get(), "nats.tls");
    conn = connect(std::move(settings));
  } catch (const connection_error& e) {
    throw core::source_error(fmt::format("{}: {}", state->name, e.what()));
  }

  natsSubscription* sub = nullptr;
  natsStatus status =
    spec.queue.empty()
      ? natsConnection_Subscribe(&sub, conn->get(), spec.subject.c_str(), deliver, state.get())
      : natsConnection_QueueSubscribe(&sub, conn->get(), spec.subject.c_str(),
                                      spec.queue.c_str(), deliver, state.get());
  if (status != NATS_OK)
    throw core::source_error(fmt::format("{}: cannot subscribe to '{}': {}", state->name,
                                         spec.subject, status_text(status)));
  natsSubscription_SetOnCompleteCB(sub, on_complete, state.get());
  natsSubscription_SetPendingLimits(sub, opts.pending_messages, opts.pending_bytes);
  // Listening once this returns: the server has the subscription (when connected now; else it
  // is sent on connect).
  if (conn->connected())
    natsConnection_FlushTimeout(conn->get(), opts.connect_timeout.count());
  spdlog::info("{}: subscribed to {}{}", state->name, spec.subject,
               spec.queue.empty() ? "" : " in queue group " + spec.queue);
  return std::make_unique<nats_source>(std::move(state), std::move(conn), sub);
}

} // namespace

std::vector<std::string> check_source(const core::source_context& ctx) {
  return core::check_spec<event_spec>(ctx, [&](const auto& spec) {
    auto name = fmt::format("nats source {}/{}", ctx.event_source_name, ctx.event_name);
    std::vector<std::string> problems;
    if (spec.url.empty())
      problems.push_back(fmt::format("{}: url can't be empty", name));
    if (spec.subject.empty())
      problems.push_back(fmt::format("{}: subject can't be empty", name));
    return problems;
  });
}

core::source_factory make_source_factory(options opts) {
  return {[opts](const core::source_context& ctx) { return start_source(opts, ctx); },
          check_source, source_spec_step()};
}

} // namespace ganglion::nats
