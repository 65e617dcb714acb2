// The whole engine in a host's actor system with one scheduler thread: what an actor of the
// host may do with it from its message handlers.

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include <caf/all.hpp>

#include "ganglion/core/embed.hpp"
#include "ganglion/core/engine.hpp"
#include "ganglion/core/logging.hpp"
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

/// An EventSource whose events the host publishes itself (a source kind it registers).
const char* shop_source = R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: shop
spec:
  generic:
    order:
      url: "shop.internal:443"
      config: "{}"
)";

/// The source kind of `shop_source`: hands the host the bus of each source it starts.
struct host_source : core::source {};

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
    // The root's down message and the stop's message come from two actors: either comes first.
    auto seen = std::make_shared<int>(0);
    self->set_down_handler([&, self, seen](caf::down_msg&) {
      if (++*seen == 2) {
        outcome.set_value("stopped, root down");
        self->quit();
      }
    });
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
      [&, self, seen](core::engine_stopped_atom) {
        if (engine.root()) {
          outcome.set_value("engine_stopped before the root was reset");
          self->quit();
        } else if (++*seen == 2) {
          outcome.set_value("stopped, root down");
          self->quit();
        }
      },
    };
  });
  caf::anon_send(stopper, go_atom::value);
  auto result = outcome.get_future();
  ASSERT_EQ(result.wait_for(10s), std::future_status::ready) << "the stop did not finish";
  EXPECT_EQ(result.get(), "stopped, root down");
  EXPECT_FALSE(engine.root());
  EXPECT_FALSE(engine.ready());
}

TEST(embed_engine, an_engine_destroyed_in_a_handler_stops_in_the_background) {
  one_thread_system host;
  auto engine = std::make_shared<std::unique_ptr<core::engine>>(std::make_unique<core::engine>(
    *host.system, core::engine_options{}, core::source_registry{}, core::trigger_registry{}));
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

TEST(embed_engine, firings_of_an_actor_trigger_arrive_as_messages) {
  caf::actor_system_config cfg;
  caf::actor_system system{cfg};
  caf::scoped_actor host{system};
  std::promise<std::shared_ptr<core::bus_publisher>> bus;
  core::source_registry sources;
  sources["generic"] = [&](const core::source_context& ctx) -> std::unique_ptr<core::source> {
    bus.set_value(ctx.bus);
    return std::make_unique<host_source>();
  };
  core::trigger_registry triggers;
  triggers["log"] = core::actor_trigger(host);
  core::engine engine{system, core::engine_options{}, std::move(sources), std::move(triggers)};
  auto documents = load(log_sensor);
  for (auto& doc : load(shop_source))
    documents.push_back(std::move(doc));
  engine.start(documents);
  auto publisher = bus.get_future();
  ASSERT_EQ(publisher.wait_for(10s), std::future_status::ready) << "the source never started";
  core::event order;
  order.id = core::new_event_id();
  order.source = "shop";
  order.subject = "order";
  order.type = "generic";
  order.time = core::now_rfc3339();
  order.data = R"({"amount":250})";
  publisher.get()->publish(std::move(order), [](core::publish_status, const std::string&) {});
  bool fired = false;
  host->receive(
    [&](const core::sensor_firing& f) {
      fired = true;
      EXPECT_EQ(f.sensor, "orders");
      EXPECT_EQ(f.trigger, "audit");
      ASSERT_EQ(f.events.count("order"), 1u);
      EXPECT_EQ(f.events.at("order").data, R"({"amount":250})");
    },
    caf::after(10s) >> [] {});
  EXPECT_TRUE(fired) << "no firing within 10 s";
  engine.stop();
}

TEST(embed_engine, the_log_goes_to_the_hosts_callback_at_its_level) {
  std::mutex mutex;
  std::vector<std::pair<core::log_level, std::string>> lines;
  std::promise<void> running;
  core::set_log_callback([&](core::log_level level, std::string_view message) {
    std::lock_guard guard{mutex};
    lines.emplace_back(level, std::string{message});
    if (message == "sensor orders is running")
      running.set_value();
  });
  core::set_log_level(core::log_level::info);
  {
    caf::actor_system_config cfg;
    caf::actor_system system{cfg};
    core::engine engine{system, core::engine_options{}, {}, {}};
    engine.start(load(log_sensor));
    EXPECT_EQ(running.get_future().wait_for(10s), std::future_status::ready);
    engine.stop();
  }
  core::set_log_level(core::log_level::error);
  {
    std::lock_guard guard{mutex};
    lines.clear();
  }
  {
    caf::actor_system_config cfg;
    caf::actor_system system{cfg};
    core::engine engine{system, core::engine_options{}, {}, {}};
    engine.start(load(log_sensor));
    engine.stop();
  }
  core::set_log_callback({});
  core::set_log_level(core::log_level::info);
  std::lock_guard guard{mutex};
  for (const auto& [level, message] : lines)
    EXPECT_GE(static_cast<int>(level), static_cast<int>(core::log_level::error)) << message;
}
