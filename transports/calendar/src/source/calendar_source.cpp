// The `calendar` event source: a tick on a cron schedule or at an interval, driven by the
// process's one calendar clock.

#include "source/calendar_source.hpp"

#include <xxhash.h>

#include <mutex>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "ganglion/calendar/spec.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/dsl/duration.hpp"
#include "source/event_data.hpp"
#include "source/source_metrics.hpp"
#include "source/tick_schedule.hpp"

namespace ganglion::calendar::detail {

namespace {

ticker::clock::time_point wall_time(dsl::go_time_point t) {
  return std::chrono::time_point_cast<ticker::clock::duration>(t);
}

dsl::go_time_point now() {
  return std::chrono::time_point_cast<std::chrono::nanoseconds>(ticker::clock::now());
}

/// One id per tick of one event, so that a bus that deduplicates (JetStream's Nats-Msg-Id)
/// keeps a tick published twice once.
std::string tick_id(const std::string& key, dsl::go_time_point tick) {
  auto text = fmt::format("{}@{}", key, tick.time_since_epoch().count());
  auto hash = XXH3_128bits(text.data(), text.size());
  return fmt::format("{:016x}{:016x}", hash.high64, hash.low64);
}

struct calendar_state : std::enable_shared_from_this<calendar_state> {
  calendar_state(const core::source_context& ctx, const event_spec& spec,
                 std::shared_ptr<ticker> clock, retry_policy retry)
    : name(fmt::format("calendar source {}/{}", ctx.event_source_name, ctx.event_name)),
      event_source(ctx.event_source_name), event_name(ctx.event_name), schedule(spec),
      metadata(spec.metadata), persistence(spec.persistence), bus(ctx.bus), store(ctx.store),
      clock(std::move(clock)), retry(retry), metrics(ctx.metrics, ctx.event_source_name, ctx.event_name) {
    if (persistence && !persistence->config_map.empty() && ctx.config_map) {
      // Cluster mode: Argo's own place, so a migrating user keeps the last tick.
      store = ctx.config_map(persistence->config_map, persistence->create_if_not_exist);
      in_config_map = true;
      key = event_source + "." + event_name;
      return;
    }
    const auto& ns = ctx.manifest ? ctx.manifest->metadata.namespace_ : std::string{};
    // Argo's ConfigMap key, `<eventSourceName>.<eventName>`, within the namespace.
    key = "calendar." + (ns.empty() ? std::string{} : ns + "/") + event_source + "."
          + event_name;
  }

  /// Where the ticks start: now, or the last tick kept when catch-up is on.
  dsl::go_time_point starting_point(const persistence_spec& p);
  void schedule_after(dsl::go_time_point last);
  void fire(dsl::go_time_point tick, int attempt);
  void on_outcome(dsl::go_time_point tick, int attempt, core::publish_status status,
                  const std::string& error);
  /// Saves `tick` as the last one, with persistence.
  void keep(dsl::go_time_point tick);

  std::string name;
  std::string event_source;
  std::string event_name;
  std::string key;
  tick_schedule schedule;
  std::map<std::string, std::string> metadata;
  std::optional<persistence_spec> persistence;
  std::shared_ptr<core::bus_publisher> bus;
  std::shared_ptr<core::source_store> store;
  bool in_config_map = false; ///< `store` is the named ConfigMap
  std::shared_ptr<ticker> clock;
  retry_policy retry;
  source_metrics metrics;
  core::log_throttle refused_log;
  core::log_throttle save_log;

  std::mutex mutex;
  bool stopped = false;
  std::uint64_t timer = 0;
};

dsl::go_time_point calendar_state::starting_point(const persistence_spec& p) {
  auto start = now();
  if (!store)
    return start;
  if (!store->durable())
    spdlog::warn("{}: persistence: the last tick is kept in {}; a restart cannot catch up",
                 name, store->where());
  if (!p.config_map.empty())
    spdlog::info("{}: persistence.configMap {}: the last tick is kept in {} under {}", name,
                 p.config_map, store->where(), key);
  // As Argo's start, a ConfigMap is read (and made when it may be) even without catch-up.
  if (!p.catchup && !in_config_map)
    return start;
  std::optional<std::string> record;
  try {
    record = store->load(key);
  } catch (const std::exception& e) {
    throw core::source_error(fmt::format("{}: cannot read the last tick: {}", name, e.what()));
  }
  if (!p.catchup)
    return start;
  if (!record) {
    spdlog::info("{}: catch-up: no tick kept yet, starting now", name);
    return start;
  }
  auto last = event_time_of(*record);
  if (!last) {
    spdlog::warn("{}: catch-up: the last tick kept ({}) has no eventTime that reads; starting "
                 "now", name, *record);
    return start;
  }
  auto bound_ns = dsl::parse_go_duration(p.catchup_max);
  auto bound = std::chrono::nanoseconds{bound_ns.value_or(0)};
  if (bound_ns && start - *last > bound) {
    spdlog::info("{}: catch-up: the last tick ({}) is older than maxDuration {}; catching up "
                 "from {} ago", name, *dsl::go_time_string(*last, schedule.time_zone()),
                 p.catchup_max, p.catchup_max);
    return start - bound;
  }
  spdlog::info("{}: catch-up: firing the ticks after {}", name,
               *dsl::go_time_string(*last, schedule.time_zone()));
  return *last;
}

void calendar_state::schedule_after(dsl::go_time_point last) {
  auto tick = schedule.next(last);
  if (!tick) {
    spdlog::warn("{}: the schedule has no tick within five years of {}; nothing more fires",
                 name, *dsl::go_time_string(last, schedule.time_zone()));
    return;
  }
  timer = clock->at(wall_time(*tick), [self = shared_from_this(), t = *tick] { self->fire(t, 0); });
}

void calendar_state::fire(dsl::go_time_point tick, int attempt) {
  std::lock_guard guard{mutex};
  if (stopped)
    return;
  auto data = calendar_event_data(tick, schedule.time_zone(), metadata);
  if (attempt == 0)
    metrics.received();
  bus->publish(core::make_event(event_source, "calendar", event_name, std::move(*data),
                                tick_id(key, tick)),
               [self = shared_from_this(), tick, attempt](core::publish_status status,
                                                          const std::string& error) {
                 // Kept before anything else: a source stopped now does not fire it again.
                 if (status == core::publish_status::accepted
                     || status == core::publish_status::filtered)
                   self->keep(tick);
                 self->clock->post([self, tick, attempt, status, error] {
                   self->on_outcome(tick, attempt, status, error);
                 });
               });
}

void calendar_state::on_outcome(dsl::go_time_point tick, int attempt, core::publish_status status,
                                const std::string& error) {
  std::lock_guard guard{mutex};
  if (stopped)
    return;
  if (status == core::publish_status::accepted || status == core::publish_status::filtered) {
    if (status == core::publish_status::accepted)
      metrics.accepted();
    schedule_after(tick);
    return;
  }
  metrics.rejected(core::to_string(status));
  auto shown = *dsl::go_time_string(tick, schedule.time_zone());
  auto why = core::to_string(status) + (error.empty() ? "" : ": " + error);
  if (attempt + 1 < retry.attempts) {
    std::uint64_t held_back = 0;
    if (refused_log.allow(held_back))
      spdlog::warn("{}: the bus refused the tick of {} ({}); attempt {} of {} in {} ms{}", name,
                   shown, why, attempt + 2, retry.attempts, retry.delay_after(attempt).count(),
                   core::held_back_note(held_back));
    timer = clock->at(ticker::clock::now() + retry.delay_after(attempt),
                      [self = shared_from_this(), tick, attempt] { self->fire(tick, attempt + 1); });
    return;
  }
  metrics.rejected("given_up");
  spdlog::error("{}: the tick of {} is skipped: the bus refused it {} times ({})", name, shown,
                retry.attempts, why);
  keep(tick);
  schedule_after(tick);
}

void calendar_state::keep(dsl::go_time_point tick) {
  if (persistence && store)
    store->save(key, *calendar_event_data(tick, schedule.time_zone(), metadata),
                [self = shared_from_this()](const std::string& error) {
                  std::uint64_t held_back = 0;
                  if (!error.empty() && self->save_log.allow(held_back))
                    spdlog::error("{}: cannot keep the last tick: {}{}", self->name, error,
                                  core::held_back_note(held_back));
                });
}

/// A running calendar source: its state, on the clock until destroyed.
class calendar_source final : public core::source {
public:
  explicit calendar_source(std::shared_ptr<calendar_state> state) : state_(std::move(state)) {}

  ~calendar_source() override {
    std::lock_guard guard{state_->mutex};
    state_->stopped = true;
    state_->clock->cancel(state_->timer);
  }

private:
  std::shared_ptr<calendar_state> state_;
};

} // namespace

std::unique_ptr<core::source> start_calendar(const core::source_context& ctx,
                                             std::shared_ptr<ticker> clock,
                                             retry_policy retry) {
  const auto& spec = core::spec_of<event_spec>(ctx);
  if (!ctx.bus)
    throw core::source_error("calendar source started without a bus");
  std::shared_ptr<calendar_state> state;
  try {
    state = std::make_shared<calendar_state>(ctx, spec, std::move(clock), retry);
  } catch (const std::exception& e) {
    throw core::source_error(fmt::format("calendar source {}/{}: {}", ctx.event_source_name,
                                         ctx.event_name, e.what()));
  }
  auto start = state->persistence ? state->starting_point(*state->persistence) : now();
  {
    std::lock_guard guard{state->mutex};
    state->schedule_after(start);
  }
  spdlog::info("{}: {} {}{}", state->name, spec.schedule.empty() ? "every" : "schedule",
               spec.schedule.empty() ? spec.interval : spec.schedule,
               spec.timezone.empty() ? "" : " in " + spec.timezone);
  return std::make_unique<calendar_source>(std::move(state));
}

} // namespace ganglion::calendar::detail
