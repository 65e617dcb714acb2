// A CAF application with one ganglion sensor in its own actor system: a feeder actor sends
// CloudEvents, the sensor matches them, a printer actor prints each firing. Exits 0 once the
// expected firings arrived, 1 otherwise.

#include <chrono>
#include <cstdio>
#include <exception>
#include <string>

#include <caf/all.hpp>

#include "ganglion/core/embed.hpp"

namespace {

using namespace std::chrono_literals;
using done_atom = caf::atom_constant<caf::atom("done")>;

// An Argo Events Sensor, as a cluster would run it: ship once an order over 100 and a payment
// have both arrived; audit every order over 100.
const char* sensor_yaml = R"(apiVersion: argoproj.io/v1alpha1
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
        name: audit
        conditions: order
        log: {}
    - template:
        name: ship
        conditions: "order && payment"
        log: {}
)";

constexpr int expected_firings = 2;

ganglion::core::event shop_event(const std::string& name, const std::string& data) {
  ganglion::core::event e;
  e.id = ganglion::core::new_event_id();
  e.source = "shop"; // eventSourceName
  e.subject = name;  // eventName
  e.type = "webhook";
  e.time = ganglion::core::now_rfc3339();
  e.data = data;
  return e;
}

// Sends the shop's events to the sensor, then ends.
void feeder(caf::event_based_actor* self, caf::actor sensor) {
  self->send(sensor, shop_event("order", R"({"amount":50})")); // filtered out
  self->send(sensor, shop_event("payment", R"({"card":"visa"})"));
  self->send(sensor, shop_event("order", R"({"amount":250})")); // audit and ship fire
}

struct printer_state {
  int firings = 0;
  static inline const char* name = "printer";
};

// Prints every firing; tells `main_actor` once the expected ones arrived.
caf::behavior printer(caf::stateful_actor<printer_state>* self, caf::actor main_actor) {
  return {
    [=](const ganglion::core::sensor_firing& f) {
      std::printf("firing %s/%s:", f.sensor.c_str(), f.trigger.c_str());
      for (const auto& [dependency, e] : f.events)
        std::printf(" %s=%s", dependency.c_str(), e.data.c_str());
      std::printf("\n");
      if (++self->state.firings == expected_firings)
        self->send(main_actor, done_atom::value);
    },
  };
}

} // namespace

int main() {
  caf::actor_system_config cfg;
  ganglion::core::add_message_types(cfg); // only needed across processes; harmless here
  caf::actor_system system{cfg};
  caf::scoped_actor self{system};
  auto print = system.spawn(printer, caf::actor{self});
  caf::actor sensor;
  try {
    sensor = ganglion::core::spawn_sensor(system, std::string{sensor_yaml}, print, "orders.yaml");
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "%s\n", ex.what());
    self->send_exit(print, caf::exit_reason::user_shutdown);
    return 1;
  }
  system.spawn(feeder, sensor);
  bool done = false;
  self->receive([&](done_atom) { done = true; }, caf::after(5s) >> [] {});
  self->send_exit(sensor, caf::exit_reason::user_shutdown);
  self->send_exit(print, caf::exit_reason::user_shutdown);
  if (!done) {
    std::fprintf(stderr, "the expected %d firings did not arrive within 5 s\n", expected_firings);
    return 1;
  }
  std::printf("%d firings: ok\n", expected_firings);
  return 0;
}
