// The webhook source's HTTP contract, driven through the binary with a real HTTP client.

#include <thread>

#include "engine_process.hpp"
#include "eventually.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

std::string log_sensor(const std::string& source, const std::string& event) {
  return fmt::format(R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: s
spec:
  dependencies:
    - name: d
      eventSourceName: {}
      eventName: {}
  triggers:
    - template:
        name: log-it
        log: {{}}
)", source, event);
}

std::string sink_sensor(const std::string& url) {
  return e2e::hook_sensor(fmt::format(R"(    - template:
        name: to-sink
        http:
          url: {}
          payload:
            - src:
                dependencyName: d
                dataKey: body
                useRawData: true
              dest: body
            - src:
                dependencyName: d
                dataKey: body
              dest: quoted
)", url));
}

} // namespace

TEST(e2e_webhook, bearer_token_is_required_when_auth_secret_is_set) {
  test::http_sink sink;
  auto secrets = test::temp_dir();
  test::write_file(secrets + "/webhook-auth/token", "s3cret\n");
  auto port = test::free_port();
  e2e::engine_process engine{
    e2e::webhook_source("hooks", port, {"example"},
                        "      authSecret:\n        name: webhook-auth\n        key: token\n")
      + sink_sensor(sink.url("/s")),
    secrets};
  EXPECT_EQ(e2e::post(port, "example", R"({"x":1})").status, 401);
  EXPECT_EQ(e2e::post(port, "example", R"({"x":2})", {"Authorization: Bearer wrong"}).status, 401);
  EXPECT_EQ(e2e::post(port, "example", R"({"x":3})", {"Authorization: Bearer s3cret"}).status, 200);
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  // The 401s were answered before anything was published: one event only reached the sensor.
  ASSERT_EQ(sink.requests().size(), 1u);
    // useRawData inserts the object; without it Argo inserts the object's JSON text as a string.
  EXPECT_EQ(sink.requests()[0].body, R"({"body":{"x":3},"quoted":"{\"x\":3}"})");
}

TEST(e2e_webhook, malformed_json_is_rejected_and_the_next_event_still_fires) {
  test::http_sink sink;
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"})
                             + sink_sensor(sink.url("/s"))};
  auto bad = e2e::post(port, "example", R"({"x": )");
  EXPECT_EQ(bad.status, 400);
  EXPECT_FALSE(bad.body.empty());
  EXPECT_EQ(e2e::post(port, "example", R"({"x":"ok"})").status, 200);
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  EXPECT_EQ(sink.requests()[0].body, R"({"body":{"x":"ok"},"quoted":"{\"x\":\"ok\"}"})");
}

TEST(e2e_webhook, filter_expression_drops_events_before_the_bus_and_answers_success) {
  test::http_sink sink;
  auto port = test::free_port();
  auto manifests =
    e2e::webhook_source("hooks", port, {"example"},
                        "      filter:\n        expression: 'body.x == \"ok\"'\n")
    + sink_sensor(sink.url("/s"));
  auto dir = test::temp_dir();
  test::write_file(dir + "/m.yaml", manifests);
  test::child_process validate{{GANGLION_BINARY, "validate", "--strict", "-f", dir + "/m.yaml"}};
  EXPECT_EQ(validate.wait(20s), 0) << validate.output();

  e2e::engine_process engine{manifests};
  EXPECT_EQ(e2e::post(port, "example", R"({"x":"no"})").status, 200);
  // The webhook answers once the filter has judged the event: it is counted by then.
  auto metrics = test::http_request("GET", engine.admin_url("/metrics")).body;
  EXPECT_NE(metrics.find(R"(ganglion_events_rejected_total{eventsource="hooks",event="example",)"
                         R"(reason="filtered"} 1)"),
            std::string::npos)
    << metrics;
  EXPECT_EQ(e2e::post(port, "example", R"({"x":"ok"})").status, 200);
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  EXPECT_EQ(sink.requests()[0].body, R"({"body":{"x":"ok"},"quoted":"{\"x\":\"ok\"}"})");
}

TEST(e2e_webhook, unknown_endpoint_wrong_method_and_oversized_body) {
  auto port = test::free_port();
  e2e::engine_process engine{
    e2e::webhook_source("hooks", port, {"example"}, "      maxPayloadSize: 64\n")
    + log_sensor("hooks", "example")};
  EXPECT_EQ(e2e::post(port, "nowhere", "{}").status, 404);
  EXPECT_EQ(test::http_request("PUT", fmt::format("http://127.0.0.1:{}/example", port), "{}").status,
            405);
  std::string big = R"({"pad":")" + std::string(200, 'x') + R"("})";
  EXPECT_EQ(e2e::post(port, "example", big).status, 413);
  EXPECT_EQ(e2e::post(port, "example", R"({"small":true})").status, 200);
  EXPECT_EQ(test::http_request("GET", fmt::format("http://127.0.0.1:{}/health", port)).status, 200);
  auto metrics = test::http_request("GET", engine.admin_url("/metrics")).body;
  EXPECT_NE(metrics.find("ganglion_events_accepted_total"), std::string::npos) << metrics;
}

TEST(e2e_webhook, saturated_bus_answers_503_instead_of_dropping) {
  test::http_sink sink;
  sink.set_delay(1500ms);
  auto port = test::free_port();
  auto dir = test::temp_dir();
  test::write_file(dir + "/m.yaml", e2e::webhook_source("hooks", port, {"example"})
                                      + sink_sensor(sink.url("/slow")));
  auto admin = test::free_port();
  test::child_process proc{{GANGLION_BINARY, "run", "-f", dir + "/m.yaml", "--webhook-host",
                            "127.0.0.1", "--admin", fmt::format("127.0.0.1:{}", admin),
                            "--bus-capacity", "2", "--data-dir", dir + "/data"}};
  ASSERT_TRUE(test::wait_http_ok(fmt::format("http://127.0.0.1:{}/ready", admin), 20s))
    << proc.output();
  int accepted = 0;
  int refused = 0;
  for (int i = 0; i < 6; ++i) {
    auto status = e2e::post(port, "example", fmt::format(R"({{"i":{}}})", i)).status;
    accepted += status == 200;
    refused += status == 503;
  }
  EXPECT_EQ(accepted, 2) << proc.output();
  EXPECT_EQ(refused, 4);
  // Every accepted event reaches the sink.
  EXPECT_TRUE(sink.wait_for(2, 15s)) << proc.output();
  proc.signal(SIGTERM);
  EXPECT_EQ(proc.wait(20s), 0);
}

TEST(e2e_webhook, a_bus_full_of_bytes_answers_503_while_small_events_still_fit) {
  test::http_sink sink;
  sink.set_delay(1500ms);
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"})
                               + sink_sensor(sink.url("/slow")),
                             {},
                             true,
                             {"--bus-capacity-mib", "1"}};
  // 400 KiB each: two fit in 1 MiB, a third does not, while the slow sink holds them.
  auto big = [](int i) {
    return fmt::format(R"({{"i":{},"pad":"{}"}})", i, std::string(400 << 10, 'x'));
  };
  EXPECT_EQ(e2e::post(port, "example", big(0)).status, 200) << engine.output();
  EXPECT_EQ(e2e::post(port, "example", big(1)).status, 200);
  EXPECT_EQ(e2e::post(port, "example", big(2)).status, 503);
  EXPECT_EQ(e2e::post(port, "example", R"({"small":true})").status, 200);
  // Every accepted event reaches the sink, and then the bus has room again.
  ASSERT_TRUE(sink.wait_for(3, 15s)) << engine.output();
  EXPECT_TRUE(test::eventually([&] { return e2e::post(port, "example", big(3)).status == 200; }));
  EXPECT_TRUE(sink.wait_for(4, 15s)) << engine.output();
  engine.stop();
}

TEST(e2e_webhook, a_log_trigger_shows_at_most_64_kib_of_an_event) {
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"})
                             + log_sensor("hooks", "example")};
  auto body = R"({"pad":")" + std::string(300 << 10, 'x') + R"(","end":"last-field"})";
  ASSERT_EQ(e2e::post(port, "example", body).status, 200);
  ASSERT_TRUE(
    test::eventually([&] { return engine.output().find("bytes not shown)") != std::string::npos; }))
    << engine.output().substr(0, 2000);
  auto out = engine.output();
  auto end = out.find("bytes not shown)");
  auto start = out.rfind('\n', end) + 1; // npos + 1 == 0: the first line
  auto line = out.substr(start, out.find('\n', end) - start);
  EXPECT_NE(line.find("log trigger "), std::string::npos) << line.substr(0, 200);
  EXPECT_LT(line.size(), 65 * 1024);
  EXPECT_GT(line.size(), 64 * 1024);
  EXPECT_EQ(line.find("last-field"), std::string::npos);
}

TEST(e2e_webhook, each_endpoint_logs_the_address_it_listens_on) {
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example", "other"})
                             + log_sensor("hooks", "example")};
  auto out = engine.output();
  EXPECT_NE(out.find(fmt::format("webhook source hooks/example: listening on "
                                 "http://127.0.0.1:{}/example",
                                 port)),
            std::string::npos)
    << out;
  EXPECT_NE(out.find(fmt::format("webhook source hooks/other: listening on "
                                 "http://127.0.0.1:{}/other",
                                 port)),
            std::string::npos)
    << out;
}
