// Trigger delivery through the binary: status policy with retries, dead-letter trigger, strict
// rate limit.

#include <thread>

#include "engine_process.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

TEST(e2e_delivery, retries_until_the_status_policy_accepts) {
  test::http_sink sink{503};
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"}) + e2e::hook_sensor(fmt::format(R"(
    - template:
        name: flaky
        http:
          url: {}
      policy:
        status:
          allow: [200]
      retryStrategy:
        steps: 5
        duration: 300ms
        factor: 1
        jitter: 0
)", sink.url("/flaky")))};
  EXPECT_EQ(e2e::post(port, "example", R"({"n":1})").status, 200);
  ASSERT_TRUE(sink.wait_for(2, 10s)) << engine.output();
  // The second 503 reached the trigger, which scheduled the third attempt (300 ms off).
  ASSERT_TRUE(
    engine.wait_metric(R"(ganglion_triggers_retries_total{sensor="s",trigger="flaky"} 2)"))
    << engine.metrics();
  sink.set_status(200);
  EXPECT_TRUE(engine.wait_metric(R"(ganglion_triggers_fired_total{sensor="s",trigger="flaky"} 1)"))
    << engine.metrics() << engine.output();
  auto count = sink.requests().size();
  EXPECT_GE(count, 3u);
  EXPECT_LE(count, 4u);
  // Idle: the firing finished, so no retry is pending (one would keep it in flight).
  ASSERT_TRUE(engine.wait_idle(1)) << engine.metrics();
  EXPECT_EQ(sink.requests().size(), count) << "no attempt after the accepted one";
  EXPECT_NE(engine.metrics().find(R"(ganglion_triggers_failed_total{sensor="s",trigger="flaky"} 0)"),
            std::string::npos);
}

TEST(e2e_delivery, dead_letter_trigger_runs_after_the_last_attempt_fails) {
  test::http_sink dlq;
  auto dead = test::free_port();
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"}) + e2e::hook_sensor(fmt::format(R"(
    - template:
        name: main
        http:
          url: http://127.0.0.1:{}/down
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
)", dead, dlq.url("/dlq")))};
  EXPECT_EQ(e2e::post(port, "example", R"({"order":"A-17"})").status, 200);
  ASSERT_TRUE(dlq.wait_for(1, 15s)) << engine.output();
  EXPECT_EQ(dlq.requests().at(0).body, R"({"failed_order":"A-17"})");
  EXPECT_TRUE(engine.wait_metric(R"(ganglion_triggers_retries_total{sensor="s",trigger="main"} 2)"))
    << engine.metrics();
  EXPECT_TRUE(engine.wait_metric(
    R"(ganglion_triggers_dead_letter_total{sensor="s",trigger="main",result="success"} 1)"))
    << engine.metrics();
}

TEST(e2e_delivery, rate_limit_never_exceeds_the_limit_in_any_second) {
  test::http_sink sink;
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"}) + e2e::hook_sensor(fmt::format(R"(
    - template:
        name: limited
        http:
          url: {}
      rateLimit:
        unit: Second
        requestsPerUnit: 2
)", sink.url("/limited")))};
  for (int i = 0; i < 6; ++i)
    EXPECT_EQ(e2e::post(port, "example", fmt::format(R"({{"i":{}}})", i)).status, 200);
  ASSERT_TRUE(sink.wait_for(6, 15s)) << engine.output();
  auto requests = sink.requests();
  ASSERT_EQ(requests.size(), 6u);
  for (std::size_t i = 2; i < requests.size(); ++i)
    EXPECT_GE(requests[i].at - requests[i - 2].at, 950ms) << "3 requests within a second at " << i;
}
