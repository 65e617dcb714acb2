// The calendar source on its clock, publishing to a bus the test controls: ticks with Argo's
// event data, catch-up from the last tick kept, bounded retries of a refused tick, and a
// restart that neither repeats nor skips a tick.

#include <gtest/gtest.h>

#include <map>
#include <mutex>

#include "eventually.hpp"
#include "ganglion/calendar/spec.hpp"
#include "kind_manifests.hpp"
#include "source/calendar_source.hpp"
#include "source/event_data.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// A bus that keeps every event offered, refusing the first `refusals` offers of each event id.
class recording_bus : public core::bus_publisher {
public:
  explicit recording_bus(int refusals = 0) : refusals_(refusals) {}

  void publish(core::event&& e, core::publish_done done) override {
    bool refuse;
    {
      std::lock_guard guard{mutex_};
      offered_.push_back(e);
      refuse = ++offers_[e.id] <= refusals_;
      if (!refuse)
        accepted_.push_back(e);
    }
    done(refuse ? core::publish_status::saturated : core::publish_status::accepted, {});
  }

  std::vector<core::event> offered() const {
    std::lock_guard guard{mutex_};
    return offered_;
  }
  std::vector<core::event> accepted() const {
    std::lock_guard guard{mutex_};
    return accepted_;
  }
  /// The eventTime of each accepted event, in order.
  std::vector<std::string> times() const {
    std::vector<std::string> out;
    for (const auto& e : accepted())
      out.push_back(event_time_text(e.data));
    return out;
  }

  static std::string event_time_text(const std::string& data) {
    auto from = data.find(R"("eventTime":")") + 13;
    return data.substr(from, data.find('"', from) - from);
  }

private:
  int refusals_;
  mutable std::mutex mutex_;
  std::vector<core::event> offered_;
  std::vector<core::event> accepted_;
  std::map<std::string, int> offers_;
};

/// Values in memory, as the engine's store keeps them when it has no data directory.
class memory_store : public core::source_store {
public:
  std::optional<std::string> load(const std::string& key) override {
    std::lock_guard guard{mutex_};
    auto i = values_.find(key);
    return i == values_.end() ? std::nullopt : std::optional{i->second};
  }
  void save(const std::string& key, std::string value, save_done done) override {
    {
      std::lock_guard guard{mutex_};
      values_[key] = std::move(value);
    }
    done({});
  }
  std::string where() const override { return "the test's memory"; }
  bool durable() const override { return true; }

private:
  std::mutex mutex_;
  std::map<std::string, std::string> values_;
};

/// `persistence` with catch-up on or off, its maxDuration and ConfigMap name.
calendar::persistence_spec persistence(bool catchup, std::string max = {}, std::string map = {}) {
  calendar::persistence_spec out;
  out.catchup = catchup;
  out.catchup_max = std::move(max);
  out.config_map = std::move(map);
  return out;
}

dsl::go_time_point now() {
  return std::chrono::time_point_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now());
}

class calendar_source_test : public ::testing::Test {
protected:
  std::unique_ptr<core::source> start(const calendar::event_spec& spec,
                                      calendar::detail::retry_policy retry = {}) {
    es.metadata.name = "cal";
    test::event_under_test<calendar::event_spec> e;
    static_cast<calendar::event_spec&>(e) = spec;
    test::put_event(es, "calendar", "tick", e);
    core::source_context ctx;
    ctx.event_source_name = "cal";
    ctx.event_name = "tick";
    ctx.type = "calendar";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.store = store;
    ctx.metrics = &metrics;
    return calendar::detail::start_calendar(ctx, clock, retry);
  }

  std::uint64_t rejected(const std::string& reason) {
    return metrics
      .get_counter("ganglion_events_rejected_total", "",
                   {{"eventsource", "cal"}, {"event", "tick"}, {"reason", reason}})
      .value();
  }

  dsl::event_source es;
  std::shared_ptr<recording_bus> bus = std::make_shared<recording_bus>();
  std::shared_ptr<memory_store> store = std::make_shared<memory_store>();
  std::shared_ptr<calendar::detail::ticker> clock = std::make_shared<calendar::detail::ticker>();
  core::metrics_registry metrics;
};

} // namespace

TEST_F(calendar_source_test, an_interval_ticks_on_whole_seconds_with_argo_event_data) {
  calendar::event_spec spec;
  spec.interval = "1s";
  spec.metadata = {{"hello", "world"}};
  auto source = start(spec);
  ASSERT_TRUE(test::eventually([&] { return bus->accepted().size() >= 2; }, 10s));
  auto events = bus->accepted();
  auto first = calendar::detail::event_time_of(events[0].data);
  auto second = calendar::detail::event_time_of(events[1].data);
  ASSERT_TRUE(first && second) << events[0].data;
  EXPECT_EQ(*second - *first, 1s);
  EXPECT_EQ(first->time_since_epoch() % 1s, 0ns);
  EXPECT_EQ(events[0].data, R"({"eventTime":")" + *dsl::go_time_string(*first, "")
                              + R"(","metadata":{"hello":"world"}})");
  EXPECT_EQ(events[0].type, "calendar");
  EXPECT_EQ(events[0].source, "cal");
  EXPECT_EQ(events[0].subject, "tick");
  EXPECT_NE(events[0].id, events[1].id);
}

TEST_F(calendar_source_test, catchup_fires_every_missed_tick_in_order_from_the_last_kept) {
  // The last tick as Argo's ConfigMap holds it, 3½ minutes ago, monotonic suffix and all.
  auto last = std::chrono::floor<std::chrono::minutes>(now() - 210s);
  store->save("calendar.cal.tick",
              R"({"eventTime":")" + *dsl::go_time_string(last, "") + R"( m=+683.567066901"})",
              [](const std::string&) {});
  calendar::event_spec spec;
  spec.schedule = "* * * * *";
  spec.persistence = persistence(true);
  auto begun = now();
  auto source = start(spec);
  // The minutes after `last` up to now: three, or four when a minute turns meanwhile.
  ASSERT_TRUE(test::eventually([&] { return bus->accepted().size() >= 3; }, 10s));
  auto times = bus->times();
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(times[i], *dsl::go_time_string(last + std::chrono::minutes{i + 1}, ""));
  EXPECT_LE(last + 3min, begun);
  // The store holds the latest tick the bus accepted, in Argo's format.
  EXPECT_TRUE(test::eventually([&] {
    return calendar::detail::event_time_of(*store->load("calendar.cal.tick"))
           == calendar::detail::event_time_of(bus->accepted().back().data);
  }, 5s)) << *store->load("calendar.cal.tick");
}

TEST_F(calendar_source_test, catchup_goes_back_no_further_than_max_duration) {
  auto last = std::chrono::floor<std::chrono::minutes>(now() - 30min);
  store->save("calendar.cal.tick", R"({"eventTime":")" + *dsl::go_time_string(last, "") + "\"}",
              [](const std::string&) {});
  calendar::event_spec spec;
  spec.schedule = "* * * * *";
  spec.persistence = persistence(true, "150s");
  auto begun = now();
  auto source = start(spec);
  ASSERT_TRUE(test::eventually([&] { return bus->accepted().size() >= 2; }, 10s));
  auto first = *calendar::detail::event_time_of(bus->accepted().front().data);
  EXPECT_GT(first, begun - 150s);
  EXPECT_LE(first, begun - 60s);
}

TEST_F(calendar_source_test, without_catchup_a_kept_tick_is_not_read) {
  store->save("calendar.cal.tick",
              R"({"eventTime":")" + *dsl::go_time_string(now() - 10min, "") + "\"}",
              [](const std::string&) {});
  calendar::event_spec spec;
  spec.interval = "1s";
  spec.persistence = persistence(false, "", "cm");
  auto begun = now();
  auto source = start(spec);
  ASSERT_TRUE(test::eventually([&] { return !bus->accepted().empty(); }, 10s));
  EXPECT_GT(*calendar::detail::event_time_of(bus->accepted().front().data), begun);
  // It is written all the same, as Argo writes its ConfigMap.
  ASSERT_TRUE(test::eventually([&] {
    return calendar::detail::event_time_of(*store->load("calendar.cal.tick")) > begun;
  }, 5s));
}

TEST_F(calendar_source_test, a_refused_tick_is_retried_with_the_same_time_and_id) {
  bus = std::make_shared<recording_bus>(2);
  calendar::event_spec spec;
  spec.interval = "1s";
  auto source = start(spec, {.attempts = 5, .first_delay = 10ms, .max_delay = 40ms});
  ASSERT_TRUE(test::eventually([&] { return !bus->accepted().empty(); }, 10s));
  auto offered = bus->offered();
  ASSERT_GE(offered.size(), 3u);
  EXPECT_EQ(offered[0].id, offered[2].id);
  EXPECT_EQ(offered[0].data, offered[2].data);
  EXPECT_EQ(bus->accepted().front().id, offered[0].id);
  EXPECT_EQ(rejected("saturated"), 2u);
  EXPECT_EQ(rejected("given_up"), 0u);
}

TEST_F(calendar_source_test, a_tick_refused_on_every_attempt_is_skipped_and_the_next_proceeds) {
  bus = std::make_shared<recording_bus>(1000);
  calendar::event_spec spec;
  spec.interval = "1s";
  auto source = start(spec, {.attempts = 3, .first_delay = 10ms, .max_delay = 20ms});
  ASSERT_TRUE(test::eventually([&] { return bus->offered().size() >= 4; }, 10s));
  auto offered = bus->offered();
  EXPECT_EQ(offered[0].id, offered[2].id);
  EXPECT_NE(offered[2].id, offered[3].id);
  EXPECT_EQ(*calendar::detail::event_time_of(offered[3].data)
              - *calendar::detail::event_time_of(offered[0].data), 1s);
  EXPECT_GE(rejected("given_up"), 1u);
}

TEST_F(calendar_source_test, a_restart_with_catchup_neither_repeats_nor_skips_a_tick) {
  calendar::event_spec spec;
  spec.interval = "1s";
  spec.persistence = persistence(true);
  auto source = start(spec);
  ASSERT_TRUE(test::eventually([&] { return bus->accepted().size() >= 2; }, 10s));
  source.reset();
  auto before = bus->accepted().size();
  source = start(spec);
  ASSERT_TRUE(test::eventually([&] { return bus->accepted().size() >= before + 2; }, 10s));
  source.reset();
  std::vector<dsl::go_time_point> ticks;
  for (const auto& e : bus->accepted())
    ticks.push_back(*calendar::detail::event_time_of(e.data));
  for (std::size_t i = 1; i < ticks.size(); ++i)
    EXPECT_EQ(ticks[i] - ticks[i - 1], 1s) << "tick " << i;
}
