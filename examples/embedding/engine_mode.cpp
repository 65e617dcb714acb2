// The whole ganglion engine in a CAF application's own actor system: an EventSource of a kind
// the host registers (it publishes the shop's events itself), the Sensor `orders`, and its
// triggers delivered to a host actor as messages. The host monitors the engine's root and stops
// the engine from a message handler. Exits 0 once the expected firings arrived, 1 otherwise.

#include <chrono>
#include <cstdio>
#include <exception>
#include <memory>
#include <string>

#include <caf/all.hpp>

#include "ganglion/core/embed.hpp"
#include "ganglion/core/engine.hpp"
#include "ganglion/core/logging.hpp"
#include "ganglion/dsl/load.hpp"

namespace {

using namespace std::chrono_literals;
using namespace ganglion;
using done_atom = caf::atom_constant<caf::atom("done")>;

// Argo's GenericEventSource names a service that sends events; here the host is that service.
const char* manifests = R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: shop
spec:
  generic:
    order: {url: "shop.internal:443", config: "{}"}
    payment: {url: "shop.internal:443", config: "{}"}
---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: orders
spec:
  dependencies:
    - {name: order, eventSourceName: shop, eventName: order,
       filters: {data: [{path: amount, type: number, comparator: ">", value: ["100"]}]}}
    - {name: payment, eventSourceName: shop, eventName: payment}
  triggers:
    - template: {name: audit, conditions: order, log: {}}
    - template: {name: ship, conditions: "order && payment", log: {}}
)";

constexpr int expected_firings = 2;

// The source kind `generic`, as the host runs it: each started source publishes its events.
struct shop_source : core::source {};

std::unique_ptr<core::source> start_shop_source(const core::source_context& ctx) {
  auto publish = [&](const std::string& data) {
    core::event e;
    e.id = core::new_event_id();
    e.source = ctx.event_source_name;
    e.subject = ctx.event_name;
    e.type = "generic";
    e.time = core::now_rfc3339();
    e.data = data;
    ctx.bus->publish(std::move(e), [](core::publish_status, const std::string&) {});
  };
  if (ctx.event_name == "payment") {
    publish(R"({"card":"visa"})");
  } else {
    publish(R"({"amount":50})"); // filtered out
    publish(R"({"amount":250})");
  }
  return std::make_unique<shop_source>();
}

// Prints every firing; once the expected ones arrived, stops the engine from this handler
// (stop(listener) never blocks) and tells `main_actor` when it is down.
caf::behavior host(caf::event_based_actor* self, std::unique_ptr<core::engine>* engine,
                   caf::actor main_actor) {
  auto firings = std::make_shared<int>(0);
  return {
    [=](const core::sensor_firing& f) {
      std::printf("firing %s/%s:", f.sensor.c_str(), f.trigger.c_str());
      for (const auto& [dependency, e] : f.events)
        std::printf(" %s=%s", dependency.c_str(), e.data.c_str());
      std::printf("\n");
      if (++*firings == expected_firings)
        (*engine)->stop(caf::actor_cast<caf::actor>(self));
    },
    [=](core::engine_stopped_atom) {
      self->send(main_actor, done_atom::value);
      self->quit();
    },
  };
}

} // namespace

int main() {
  // ganglion's log through the host's own output, warnings and errors only.
  core::set_log_level(core::log_level::warn);
  core::set_log_callback([](core::log_level, std::string_view message) {
    std::fprintf(stderr, "ganglion: %.*s\n", static_cast<int>(message.size()), message.data());
  });
  auto loaded = dsl::load_manifest_text(manifests, "shop.yaml");
  for (const auto& d : loaded.diagnostics)
    std::fprintf(stderr, "%s\n", d.to_string().c_str());
  if (dsl::has_errors(loaded.diagnostics))
    return 1;
  caf::actor_system_config cfg;
  caf::actor_system system{cfg};
  caf::scoped_actor self{system};
  std::unique_ptr<core::engine> engine;
  auto receiver = system.spawn(host, &engine, caf::actor{self});
  // Every `log: {}` trigger reports to `receiver` instead of logging.
  core::trigger_registry triggers{{"log", core::actor_trigger(receiver)}};
  engine = std::make_unique<core::engine>(system, core::engine_options{},
                                          core::source_registry{{"generic", start_shop_source}},
                                          std::move(triggers));
  engine->start(loaded.documents);
  self->monitor(engine->root());
  bool root_down = false;
  bool stopped = false;
  auto deadline = std::chrono::steady_clock::now() + 5s;
  // The root's down message and the host's `done` come from two actors, in either order.
  while (!(stopped && root_down) && std::chrono::steady_clock::now() < deadline)
    self->receive([&](caf::down_msg&) { root_down = true; }, [&](done_atom) { stopped = true; },
                  caf::after(100ms) >> [] {});
  if (!stopped || !root_down) {
    std::fprintf(stderr, "the engine did not fire %d times and stop within 5 s\n",
                 expected_firings);
    self->send_exit(receiver, caf::exit_reason::user_shutdown);
    return 1;
  }
  std::printf("%d firings, engine stopped: ok\n", expected_firings);
  return 0;
}
