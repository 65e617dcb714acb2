#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>

#include <caf/all.hpp>

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
