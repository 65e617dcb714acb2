// The generic source's lifecycle through the binary, with the C++ example signal service
// (examples/signals/cpp) as the service: down from the start (Pending, not ready), killed and
// restarted, gone for good (phase Error), revived with the admin restart endpoint.

#include <thread>

#include <nlohmann/json.hpp>

#include "engine_process.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// The example signal service as a process on `port`.
class signal_service {
public:
  explicit signal_service(int port, std::vector<std::string> args = {}) {
    std::vector<std::string> argv{GANGLION_SIGNAL_SERVICE, "--listen",
                                  "127.0.0.1:" + std::to_string(port)};
    argv.insert(argv.end(), args.begin(), args.end());
    process_ = std::make_unique<test::child_process>(argv);
    listening_ = test::eventually(
      [&] { return process_->output().find("listening on") != std::string::npos; }, 10s);
  }
  bool listening() const { return listening_; }
  test::child_process& process() { return *process_; }

private:
  std::unique_ptr<test::child_process> process_;
  bool listening_ = false;
};

std::string manifests(int service_port, const std::string& sink_url) {
  return fmt::format(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: signals
spec:
  generic:
    example:
      url: 127.0.0.1:{}
      insecure: true
      jsonBody: true
      config: "region: eu"
---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: s
spec:
  dependencies:
    - name: d
      eventSourceName: signals
      eventName: example
  triggers:
    - template:
        name: t
        http:
          url: {}
          method: POST
          payload:
            - src: {{dependencyName: d, dataKey: body.seq}}
              dest: seq
)",
                     service_port, sink_url);
}

/// The phase and lastError of source signals/example in /v1/status.
std::pair<std::string, std::string> source_phase(const e2e::engine_process& engine) {
  auto status = nlohmann::json::parse(engine.status(), nullptr, false);
  for (const auto& c : status.value("components", nlohmann::json::array()))
    if (c.value("kind", "") == "source" && c.value("name", "") == "signals/example")
      return {c.value("phase", ""), c.value("lastError", "")};
  return {};
}

} // namespace

TEST(e2e_signals, a_service_down_from_the_start_keeps_the_source_pending_until_it_answers) {
  test::http_sink sink;
  auto port = test::free_port();
  e2e::engine_options options;
  options.wait_ready = false;
  e2e::engine_process engine{manifests(port, sink.url("/fired")), options};
  auto failures =
    "ganglion_source_connect_failures_total{eventsource=\"signals\",event=\"example\"}";
  ASSERT_TRUE(
    test::eventually([&] { return engine.metrics().find(failures) != std::string::npos; }, 15s))
    << engine.output();
  EXPECT_EQ(source_phase(engine).first, "Pending") << engine.status();
  auto ready = test::http_request("GET", engine.admin_url("/ready"));
  EXPECT_EQ(ready.status, 503);
  auto connecting =
    fmt::format("source signals/example: Pending: connecting to 127.0.0.1:{}", port);
  EXPECT_NE(ready.body.find(connecting), std::string::npos) << ready.body;

  signal_service service{port, {"--interval-ms", "50"}};
  ASSERT_TRUE(service.listening()) << service.process().output();
  ASSERT_TRUE(test::eventually([&] { return source_phase(engine).first == "Running"; }, 20s))
    << engine.status() << engine.output();
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/ready")).status, 200);
  EXPECT_TRUE(sink.wait_for(1, 10s)) << engine.output();
}

TEST(e2e_signals, a_killed_service_is_reconnected_and_a_lost_one_revived_by_restart) {
  test::http_sink sink;
  auto port = test::free_port();
  auto service = std::make_unique<signal_service>(port, std::vector<std::string>{"--interval-ms", "50"});
  ASSERT_TRUE(service->listening()) << service->process().output();
  e2e::engine_process engine{manifests(port, sink.url("/fired"))};
  ASSERT_TRUE(sink.wait_for(3, 15s)) << engine.output();

  // Killed mid-stream and back within a second: reconnected, no Error.
  service->process().signal(SIGKILL);
  service->process().wait(5s);
  service = std::make_unique<signal_service>(port, std::vector<std::string>{"--interval-ms", "50"});
  ASSERT_TRUE(service->listening()) << service->process().output();
  auto before = sink.requests().size();
  ASSERT_TRUE(sink.wait_for(before + 3, 20s)) << engine.output();
  EXPECT_EQ(source_phase(engine).first, "Running") << engine.status();

  // Gone for good: Error after 3 attempts (1 s + 2 s of backoff), and no more attempts.
  service.reset();
  ASSERT_TRUE(test::eventually([&] { return source_phase(engine).first == "Error"; }, 30s))
    << engine.status() << engine.output();
  EXPECT_NE(source_phase(engine).second.find("3 attempts in a row failed"), std::string::npos)
    << engine.status();
  auto metrics = engine.metrics();
  EXPECT_NE(metrics.find("ganglion_source_connect_failures_total{eventsource=\"signals\",event=\"example\"}"),
            std::string::npos)
    << metrics;
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/ready")).status, 503);

  // Back, and revived by hand.
  service = std::make_unique<signal_service>(port, std::vector<std::string>{"--interval-ms", "50"});
  ASSERT_TRUE(service->listening());
  // A source in Error does not reconnect by itself: its actor (and the source's streams) went
  // before the supervisor set Error, with no restart scheduled (child_supervisor's
  // deterministic test a_final_failure_is_an_error_at_once_with_no_restart_pending).
  auto settled = sink.requests().size();
  auto restart = engine.admin_post("/v1/sources/signals/example/restart");
  EXPECT_EQ(restart.status, 200) << restart.body;
  ASSERT_TRUE(sink.wait_for(settled + 3, 20s)) << engine.output();
  EXPECT_EQ(source_phase(engine).first, "Running") << engine.status();
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/ready")).status, 200);
}

TEST(e2e_signals, the_restart_endpoint_answers_unknown_sources_and_wrong_methods) {
  auto port = test::free_port();
  test::http_sink sink;
  e2e::engine_options options;
  options.wait_ready = false; // nothing listens on `port`: the source stays Pending
  e2e::engine_process engine{manifests(port, sink.url("/fired")), options};
  ASSERT_TRUE(test::wait_http_ok(engine.admin_url("/health"), 10s)) << engine.output();
  EXPECT_EQ(engine.admin_post("/v1/sources/nope/example/restart").status, 404);
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/v1/sources/signals/example/restart")).status, 405);
  EXPECT_EQ(engine.admin_post("/v1/sources/signals").status, 404);
}

TEST(e2e_signals, stopping_the_engine_ends_the_services_stream) {
  auto port = test::free_port();
  auto service = signal_service(port, {"--interval-ms", "100000"});
  ASSERT_TRUE(service.listening());
  test::http_sink sink;
  {
    e2e::engine_process engine{manifests(port, sink.url("/fired"))};
    ASSERT_TRUE(test::eventually([&] {
      return service.process().output().find("stream started: example") != std::string::npos;
    }, 10s)) << service.process().output();
    EXPECT_EQ(service.process().output().find("stream ended"), std::string::npos);
    engine.process().signal(SIGTERM);
    EXPECT_EQ(engine.process().wait(15s), 0);
  }
  EXPECT_TRUE(test::eventually([&] {
    return service.process().output().find("(cancelled by the client)") != std::string::npos;
  }, 5s)) << service.process().output();
}
