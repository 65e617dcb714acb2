#include <gtest/gtest.h>

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <caf/all.hpp>

#include "eventually.hpp"
#include "ganglion/core/embed.hpp"
#include "ganglion/core/engine.hpp"
#include "ganglion/dsl/load.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

const char* orders_sensor = R"(apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: orders
spec:
  dependencies:
    - name: order
      eventSourceName: shop
      eventName: order
      filters:
        data:
          - path: amount
            type: number
            comparator: ">"
            value: ["100"]
    - name: payment
      eventSourceName: shop
      eventName: payment
  triggers:
    - template:
        name: ship
        conditions: "order && payment"
        log: {}
)";

core::event shop_event(std::string name, std::string data) {
  core::event e;
  e.id = core::new_event_id();
  e.source = "shop";
  e.subject = std::move(name);
  e.type = "webhook";
  e.time = core::now_rfc3339();
  e.data = std::move(data);
  return e;
}

/// An executor that does nothing: the test is about when its actor starts.
struct idle_executor : core::trigger_executor {
  void execute(const core::trigger_invocation&, core::trigger_done done) override {
    done(core::trigger_outcome{true, {}, "idle"});
  }
};

} // namespace

TEST(embed, a_spawned_sensor_reports_its_firings_to_the_listener) {
  caf::actor_system_config cfg;
  core::add_message_types(cfg);
  caf::actor_system system{cfg};
  caf::scoped_actor host{system};
  auto sensor = core::spawn_sensor(system, std::string{orders_sensor}, host);
  host->send(sensor, shop_event("order", R"({"amount":50})")); // filtered out
  host->send(sensor, shop_event("payment", R"({"ok":true})"));
  host->send(sensor, shop_event("order", R"({"amount":250})"));
  bool fired = false;
  host->receive(
    [&](const core::sensor_firing& f) {
      fired = true;
      EXPECT_EQ(f.sensor, "orders");
      EXPECT_EQ(f.trigger, "ship");
      ASSERT_EQ(f.events.size(), 2u);
      EXPECT_EQ(f.events.at("order").data, R"({"amount":250})");
      EXPECT_EQ(f.events.at("payment").subject, "payment");
    },
    caf::after(10s) >> [] {});
  EXPECT_TRUE(fired) << "no firing within 10 s";
  host->send_exit(sensor, caf::exit_reason::user_shutdown);
}

TEST(embed, a_sensor_that_does_not_validate_is_refused_with_its_location) {
  caf::actor_system_config cfg;
  caf::actor_system system{cfg};
  caf::scoped_actor host{system};
  std::string bad = orders_sensor;
  bad.replace(bad.find("eventName: payment"), 18, "eventName: \"\"");
  try {
    core::spawn_sensor(system, bad, host, "orders.yaml");
    FAIL() << "spawn_sensor accepted a dependency without an event name";
  } catch (const std::runtime_error& ex) {
    EXPECT_NE(std::string{ex.what()}.find("orders.yaml:"), std::string::npos) << ex.what();
  }
}

TEST(embed, yaml_without_a_sensor_is_refused) {
  caf::actor_system_config cfg;
  caf::actor_system system{cfg};
  caf::scoped_actor host{system};
  EXPECT_THROW(core::spawn_sensor(system, std::string{"apiVersion: v1\nkind: ConfigMap\n"}, host),
               std::runtime_error);
}

TEST(embed, an_engine_on_the_host_system_stops_without_stopping_it) {
  caf::actor_system_config cfg;
  caf::actor_system system{cfg};
  {
    core::engine engine{system, core::engine_options{}, {}, {}};
    auto loaded = dsl::load_manifest_text(orders_sensor, "orders.yaml");
    engine.start(loaded.documents);
    engine.stop();
  }
  // The host's system still runs actors and answers requests.
  auto echo = system.spawn([]() -> caf::behavior { return {[](int x) { return x + 1; }}; });
  caf::scoped_actor host{system};
  int answer = 0;
  host->request(echo, 10s, 41).receive([&](int x) { answer = x; }, [](caf::error&) {});
  EXPECT_EQ(answer, 42);
  host->send_exit(echo, caf::exit_reason::user_shutdown);
}

TEST(embed, an_engine_on_the_host_system_stops_only_after_its_triggers_have) {
  caf::actor_system_config cfg;
  cfg.set("scheduler.max-threads", 4);
  caf::actor_system system{cfg};
  std::mutex mutex;
  std::condition_variable changed;
  int calls = 0;
  bool release = false;
  std::vector<std::string> order;
  core::trigger_registry triggers;
  triggers["http"] = [&](const core::trigger_context&) -> std::unique_ptr<core::trigger_executor> {
    std::unique_lock lock{mutex};
    // The first call is the start's configuration check; the second, the trigger actor's.
    if (++calls == 2) {
      changed.notify_all();
      changed.wait(lock, [&] { return release; });
      order.emplace_back("trigger actor started");
    }
    return std::make_unique<idle_executor>();
  };
  std::string manifest = orders_sensor;
  manifest.replace(manifest.find("log: {}"), 7, "http: {url: \"http://127.0.0.1:9/\"}");
  core::engine engine{system, core::engine_options{}, {}, std::move(triggers)};
  engine.start(dsl::load_manifest_text(manifest, "orders.yaml").documents);
  {
    std::unique_lock lock{mutex};
    ASSERT_TRUE(changed.wait_for(lock, 10s, [&] { return calls >= 2; }))
      << "the trigger actor never started";
  }
  std::thread stopper{[&] {
    engine.stop();
    std::lock_guard guard{mutex};
    order.emplace_back("engine stopped");
  }};
  // The sensor got the stop and stopped its trigger actor (still inside the factory): a stop
  // that did not wait for that actor would end now.
  auto trigger_stopped = [&] {
    for (const auto& c : engine.status().snapshot())
      if (c.kind == "trigger" && c.name == "orders/ship")
        return c.phase == core::phase::stopped;
    return false;
  };
  EXPECT_TRUE(test::eventually(trigger_stopped, 10s)) << engine.status().to_json();
  {
    std::lock_guard guard{mutex};
    release = true;
  }
  changed.notify_all();
  stopper.join();
  EXPECT_EQ(order, (std::vector<std::string>{"trigger actor started", "engine stopped"}));
}

TEST(embed, a_misspelt_field_comes_back_as_a_located_warning) {
  caf::actor_system_config cfg;
  caf::actor_system system{cfg};
  caf::scoped_actor host{system};
  std::string misspelt = orders_sensor;
  misspelt.replace(misspelt.find("filters:"), 8, "filter:");
  core::sensor_yaml_options options;
  options.file = "orders.yaml";
  auto spawned = core::spawn_sensor(system, misspelt, host, options);
  ASSERT_TRUE(spawned.actor);
  ASSERT_EQ(spawned.warnings.size(), 1u);
  EXPECT_NE(spawned.warnings[0].find("orders.yaml:10:7:"), std::string::npos)
    << spawned.warnings[0];
  EXPECT_NE(spawned.warnings[0].find("\"filter\""), std::string::npos) << spawned.warnings[0];
  host->send_exit(spawned.actor, caf::exit_reason::user_shutdown);
}

TEST(embed, strict_loading_refuses_a_misspelt_field_with_its_location) {
  caf::actor_system_config cfg;
  caf::actor_system system{cfg};
  caf::scoped_actor host{system};
  std::string misspelt = orders_sensor;
  misspelt.replace(misspelt.find("filters:"), 8, "filter:");
  core::sensor_yaml_options options;
  options.file = "orders.yaml";
  options.strict = true;
  try {
    core::spawn_sensor(system, misspelt, host, options);
    FAIL() << "strict spawn_sensor accepted an unknown field";
  } catch (const std::runtime_error& ex) {
    EXPECT_NE(std::string{ex.what()}.find("orders.yaml:10:7:"), std::string::npos) << ex.what();
  }
  // Without the misspelling the strict spawn succeeds.
  auto spawned = core::spawn_sensor(system, std::string{orders_sensor}, host, options);
  EXPECT_TRUE(spawned.warnings.empty());
  host->send_exit(spawned.actor, caf::exit_reason::user_shutdown);
}
