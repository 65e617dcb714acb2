// The whole engine in a host's actor system with one scheduler thread: what an actor of the
// host may do with it from its message handlers.

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>

#include <caf/all.hpp>

#include "ganglion/core/engine.hpp"
#include "ganglion/dsl/load.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

const char* log_sensor = R"(apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: orders
spec:
  dependencies:
    - name: order
      eventSourceName: shop
      eventName: order
  triggers:
    - template:
        name: audit
        log: {}
)";

using go_atom = caf::atom_constant<caf::atom("go")>;

/// An actor system with one scheduler thread: a handler that blocks it stops every actor.
struct one_thread_system {
  caf::actor_system_config config;
  std::unique_ptr<caf::actor_system> system;

  one_thread_system() {
    config.set("scheduler.max-threads", 1);
    system = std::make_unique<caf::actor_system>(config);
  }
};

std::vector<dsl::document> load(const char* yaml) {
  auto loaded = dsl::load_manifest_text(yaml, "orders.yaml");
  EXPECT_FALSE(dsl::has_errors(loaded.diagnostics));
  return loaded.documents;
}

} // namespace

TEST(embed_engine, a_handler_on_a_one_thread_system_stops_the_engine_without_blocking) {
  one_thread_system host;
  core::engine engine{*host.system, core::engine_options{}, {}, {}};
  engine.start(load(log_sensor));
  ASSERT_TRUE(engine.root());
  std::promise<std::string> outcome;
  auto stopper = host.system->spawn([&](caf::event_based_actor* self) -> caf::behavior {
    self->monitor(engine.root());
    auto root_down = std::make_shared<bool>(false);
    self->set_down_handler([root_down](caf::down_msg&) { *root_down = true; });
    return {
      [&, self](go_atom) {
        try {
          engine.stop();
          outcome.set_value("stop() blocked the handler and returned");
          return;
        } catch (const std::logic_error&) {
        }
        engine.stop(caf::actor_cast<caf::actor>(self));
      },
      [&, self, root_down](core::engine_stopped_atom) {
        outcome.set_value(*root_down ? "stopped after the root went down" : "root still up");
        self->quit();
      },
    };
  });
  caf::anon_send(stopper, go_atom::value);
  auto result = outcome.get_future();
  ASSERT_EQ(result.wait_for(10s), std::future_status::ready) << "the stop did not finish";
  EXPECT_EQ(result.get(), "stopped after the root went down");
  EXPECT_FALSE(engine.root());
  EXPECT_FALSE(engine.ready());
}

TEST(embed_engine, an_engine_destroyed_in_a_handler_of_a_one_thread_system_stops_in_the_background) {
  one_thread_system host;
  auto engine = std::make_shared<std::unique_ptr<core::engine>>(
    std::make_unique<core::engine>(*host.system, core::engine_options{}, core::source_registry{},
                                   core::trigger_registry{}));
  (*engine)->start(load(log_sensor));
  std::promise<bool> root_down;
  auto owner = host.system->spawn([&, engine](caf::event_based_actor* self) -> caf::behavior {
    self->monitor((*engine)->root());
    self->set_down_handler([&, self](caf::down_msg&) {
      root_down.set_value(true);
      self->quit();
    });
    return {
      [engine](go_atom) { engine->reset(); },
    };
  });
  caf::anon_send(owner, go_atom::value);
  auto result = root_down.get_future();
  ASSERT_EQ(result.wait_for(10s), std::future_status::ready) << "the engine's root never went down";
  // The host's only thread is free again: it still answers.
  auto echo = host.system->spawn([]() -> caf::behavior { return {[](int x) { return x + 1; }}; });
  caf::scoped_actor self{*host.system};
  int answer = 0;
  self->request(echo, 10s, 41).receive([&](int x) { answer = x; }, [](caf::error&) {});
  EXPECT_EQ(answer, 42);
  self->send_exit(echo, caf::exit_reason::user_shutdown);
}

TEST(embed_engine, stop_with_a_listener_on_a_stopped_engine_answers_at_once) {
  one_thread_system host;
  core::engine engine{*host.system, core::engine_options{}, {}, {}};
  engine.start(load(log_sensor));
  engine.stop();
  caf::scoped_actor self{*host.system};
  engine.stop(self);
  bool stopped = false;
  self->receive([&](core::engine_stopped_atom) { stopped = true; }, caf::after(10s) >> [] {});
  EXPECT_TRUE(stopped);
}
