// The custom trigger through the binary: a webhook fires a Sensor whose custom trigger calls a
// triggers.Trigger server hosted by this test, with retryStrategy and a dlqTrigger — a server
// that fails twice is retried to a success, one that always fails sends the events to the
// dead-letter trigger.

#include <climits>

#include <nlohmann/json.hpp>

#include "engine_process.hpp"
#include "eventually.hpp"
#include "test_trigger_server.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// A Sensor on hooks/example whose custom trigger `main` calls `server`, retried 3 times 100 ms
/// apart, with an http dlqTrigger posting the order to `dlq_url`.
std::string custom_sensor(const std::string& server, const std::string& dlq_url) {
  return e2e::hook_sensor(fmt::format(R"(    - template:
        name: main
        custom:
          serverURL: {}
          spec:
            pipeline: build
            replicas: "2"
          payload:
            - src:
                dependencyName: d
                dataKey: body.order
              dest: order
      atLeastOnce: true
      retryStrategy:
        steps: 3
        duration: 100ms
      dlqTrigger:
        template:
          name: parking-lot
          http:
            url: {}
            payload:
              - src:
                  dependencyName: d
                  dataKey: body.order
                dest: failed_order
        atLeastOnce: true
)",
                                      server, dlq_url));
}

/// The component `trigger <name>` of a /v1/status document; null when absent.
nlohmann::json trigger_status(const std::string& status, const std::string& name) {
  auto doc = nlohmann::json::parse(status, nullptr, false);
  if (doc.is_discarded())
    return nullptr;
  for (const auto& c : doc["components"])
    if (c["kind"] == "trigger" && c["name"] == name)
      return c;
  return nullptr;
}

} // namespace

TEST(e2e_signals_custom_trigger, a_server_that_fails_twice_succeeds_on_the_third_attempt) {
  test::test_trigger_server server;
  ASSERT_TRUE(server.started());
  server.fail_executes(2, {::grpc::StatusCode::UNAVAILABLE, "warming up"});
  test::http_sink dlq;
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"})
                             + custom_sensor(server.address(), dlq.url("/dlq"))};
  EXPECT_EQ(e2e::post(port, "example", R"({"order":"A-17"})").status, 200);
  EXPECT_TRUE(engine.wait_metric(e2e::triggers_fired("s", "main", 1)))
    << engine.metrics() << engine.output();
  EXPECT_TRUE(engine.wait_metric(R"(ganglion_triggers_retries_total{sensor="s",trigger="main"} 2)"))
    << engine.metrics();

  auto executes = server.executes();
  ASSERT_EQ(executes.size(), 3u);
  for (const auto& e : executes) {
    EXPECT_EQ(e.resource, "pipeline: build\nreplicas: \"2\"\n");
    EXPECT_EQ(e.payload, R"({"order":"A-17"})");
  }
  EXPECT_EQ(server.fetches().size(), 3u) << "each attempt fetches the resource again";
  EXPECT_EQ(server.policies().size(), 1u);
  EXPECT_TRUE(dlq.requests().empty());

  nlohmann::json main;
  ASSERT_TRUE(test::eventually([&] {
    main = trigger_status(engine.status(), "s/main");
    return main.contains("lastResult");
  }))
    << engine.status();
  EXPECT_EQ(main["lastExecution"]["outcome"], "Succeeded") << main;
  EXPECT_EQ(main["lastExecution"]["detail"], "Execute OK, policy success=true") << main;
  EXPECT_EQ(main["lastResult"],
            nlohmann::json::parse(
              R"({"response":{"executed":true},"policy":{"success":true,"message":"ok"}})"));
}

TEST(e2e_signals_custom_trigger,
     a_server_that_always_fails_sends_the_events_to_the_dead_letter_trigger) {
  test::test_trigger_server server;
  ASSERT_TRUE(server.started());
  server.fail_executes(INT_MAX, {::grpc::StatusCode::INTERNAL, "pipeline store is down"});
  test::http_sink dlq;
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"})
                             + custom_sensor(server.address(), dlq.url("/dlq"))};
  EXPECT_EQ(e2e::post(port, "example", R"({"order":"B-2"})").status, 200);
  ASSERT_TRUE(dlq.wait_for(1, 15s)) << engine.output();
  EXPECT_EQ(dlq.requests().at(0).body, R"({"failed_order":"B-2"})");
  EXPECT_TRUE(engine.wait_metric(
    R"(ganglion_triggers_dead_letter_total{sensor="s",trigger="main",result="success"} 1)"))
    << engine.metrics();
  EXPECT_EQ(server.executes().size(), 3u);
  EXPECT_TRUE(server.policies().empty());

  auto main = trigger_status(engine.status(), "s/main");
  EXPECT_EQ(main["lastExecution"]["outcome"], "Failed") << main;
  EXPECT_EQ(main["lastExecution"]["error"], "custom trigger s/main: Execute on " + server.address()
                                              + " failed: INTERNAL: pipeline store is down")
    << main;
}
