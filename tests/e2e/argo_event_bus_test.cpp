// Argo's own EventBus does not stop `run`: with `-f` files, a bus Argo's controller deploys
// (tutorial 01's `spec.nats.native`, a managed `spec.jetstream` without --bus-url) runs as the
// embedded bus with one located warning (with --bus-url the managed JetStream bus runs on that
// server), and an exotic NATS Streaming server is refused;
// `validate` says each of these at `spec.nats` / `spec.jetstream` before anything runs.

#include "engine_process.hpp"
#include "http_sink.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// Argo tutorial 01's EventBus: `default`, `spec.nats.native` (line 6, column 3).
const std::string native_bus = std::string{GANGLION_CORPUS_DIR} + "/eventbus/native.yaml";

/// A managed JetStream EventBus `default` (`spec.jetstream` on line 6, column 3).
const std::string managed_jetstream = R"(apiVersion: argoproj.io/v1alpha1
kind: EventBus
metadata:
  name: default
spec:
  jetstream:
    version: latest
)";

/// An exotic NATS Streaming EventBus `default` (`spec.nats` on line 6, column 3).
const std::string exotic_nats = R"(apiVersion: argoproj.io/v1alpha1
kind: EventBus
metadata:
  name: default
spec:
  nats:
    exotic:
      url: nats://stan.example:4222
      clusterID: stan
)";

/// A webhook on `port` and a Sensor whose HTTP trigger posts the event to `sink`.
std::string pipeline(std::uint16_t port, const std::string& sink) {
  return e2e::webhook_source("hooks", port, {"example"})
         + e2e::hook_sensor("    - template:\n        name: t\n        http:\n          url: "
                            + sink + "\n          method: POST\n");
}

struct finished {
  int code = -1;
  std::string output;
};

finished run_binary(std::vector<std::string> args) {
  args.insert(args.begin(), GANGLION_BINARY);
  test::child_process p{args};
  auto code = p.wait(30s);
  return {code ? *code : -1, p.output()};
}

std::size_t count(const std::string& text, const std::string& part) {
  std::size_t n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1))
    ++n;
  return n;
}

/// Runs `pipeline` beside the EventBus file `bus`: the webhook's event fires the trigger, the
/// process logs `warning` once, and SIGTERM stops it with 0.
void runs_on_the_embedded_bus(const std::string& bus, const std::string& warning) {
  test::http_sink sink;
  auto port = test::free_port();
  e2e::engine_options options;
  options.extra_args = {"-f", bus};
  e2e::engine_process engine{pipeline(port, sink.url("/fired")), options};
  ASSERT_EQ(e2e::post(port, "example", R"({"msg":"hello"})").status, 200) << engine.output();
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  EXPECT_EQ(sink.requests()[0].target, "/fired");
  EXPECT_EQ(count(engine.output(), warning), 1u) << engine.output();
  EXPECT_NE(engine.output().find("run uses the embedded bus instead (its durable log under "
                                 "--data-dir"),
            std::string::npos)
    << engine.output();
  engine.stop();
}

} // namespace

TEST(e2e_argo_event_bus, tutorial_01s_native_nats_bus_runs_as_the_embedded_bus) {
  runs_on_the_embedded_bus(native_bus,
                           "EventBus default (" + native_bus
                             + ":6): spec.nats: NATS Streaming (native, which Argo's "
                               "controller deploys) is deprecated upstream and not run");
}

TEST(e2e_argo_event_bus, a_managed_jetstream_bus_without_bus_url_runs_as_the_embedded_bus) {
  auto bus = test::temp_dir() + "/bus.yaml";
  test::write_file(bus, managed_jetstream);
  runs_on_the_embedded_bus(bus, "EventBus default (" + bus
                                  + ":6): spec.jetstream: a file does not say where the JetStream "
                                    "server Argo's controller deploys runs: without --bus-url");
}

TEST(e2e_argo_event_bus, a_managed_jetstream_bus_with_bus_url_runs_on_that_server) {
  test::nats_server nats;
  test::http_sink sink;
  auto port = test::free_port();
  auto bus = test::temp_dir() + "/bus.yaml";
  test::write_file(bus, managed_jetstream);
  e2e::engine_options options;
  options.extra_args = {"-f", bus, "--bus-url", nats.url()};
  e2e::engine_process engine{pipeline(port, sink.url("/fired")), options};
  ASSERT_EQ(e2e::post(port, "example", R"({"msg":"hello"})").status, 200) << engine.output();
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  EXPECT_NE(engine.output().find("JetStream bus at " + nats.url()), std::string::npos)
    << engine.output();
  EXPECT_EQ(engine.output().find("embedded bus"), std::string::npos) << engine.output();
  engine.stop();
}

TEST(e2e_argo_event_bus, validate_says_what_run_does_with_each_argo_bus_where_it_is) {
  auto plain = run_binary({"validate", "-f", native_bus});
  EXPECT_EQ(plain.code, 0) << plain.output;
  EXPECT_NE(plain.output.find(native_bus
                              + ":6:3: warning: spec.nats: NATS Streaming (native, "
                                "which Argo's controller deploys) is deprecated "
                                "upstream and not run: run uses the embedded bus"),
            std::string::npos)
    << plain.output;
  EXPECT_NE(plain.output.find("0 error(s), 1 warning(s)"), std::string::npos) << plain.output;
  auto strict = run_binary({"validate", "--strict", "-f", native_bus});
  EXPECT_EQ(strict.code, 1) << strict.output;
  EXPECT_NE(strict.output.find(native_bus + ":6:3: spec.nats: NATS Streaming"), std::string::npos)
    << strict.output;

  auto dir = test::temp_dir();
  test::write_file(dir + "/js.yaml", managed_jetstream);
  auto js = run_binary({"validate", "-f", dir + "/js.yaml"});
  EXPECT_EQ(js.code, 0) << js.output;
  EXPECT_NE(js.output.find(dir
                           + "/js.yaml:6:3: warning: spec.jetstream: a file does not say "
                             "where the JetStream server Argo's controller deploys runs: "
                             "without --bus-url, run uses the embedded bus instead"),
            std::string::npos)
    << js.output;
  EXPECT_NE(js.output.find("--bus-url nats://HOST:4222"), std::string::npos) << js.output;

  test::write_file(dir + "/exotic.yaml", exotic_nats);
  auto exotic = run_binary({"validate", "-f", dir + "/exotic.yaml"});
  EXPECT_EQ(exotic.code, 1) << exotic.output;
  EXPECT_NE(exotic.output.find(dir
                               + "/exotic.yaml:6:3: spec.nats: NATS Streaming (exotic) is "
                                 "deprecated upstream and ganglion does not speak its "
                                 "protocol"),
            std::string::npos)
    << exotic.output;
}

TEST(e2e_argo_event_bus, an_exotic_nats_streaming_bus_stops_run_with_the_reason) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/m.yaml",
                   exotic_nats + "---\n" + pipeline(test::free_port(), "http://127.0.0.1:9/"));
  auto run = run_binary({"run", "--no-watch", "--data-dir", dir + "/data", "-f", dir + "/m.yaml"});
  EXPECT_EQ(run.code, 1) << run.output;
  EXPECT_NE(run.output.find("cannot open the EventBus: EventBus default (" + dir
                            + "/m.yaml:6): spec.nats: NATS Streaming (exotic)"),
            std::string::npos)
    << run.output;
}
