// `ganglion test`: verdicts, firings and waiting conditions for a sequence of event files.

#include <fstream>
#include <iterator>

#include "engine_process.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

TEST(e2e_dry_run, explains_each_event_and_previews_what_would_fire) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/sensor.yaml", R"(apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: deploy
spec:
  dependencies:
    - name: push
      eventSourceName: github
      eventName: push
      filters:
        data:
          - path: body.ref
            type: string
            value: ["^refs/heads/main$"]
    - name: approval
      eventSourceName: slack
      eventName: approve
  triggers:
    - template:
        name: release
        conditions: push && approval
        log: {}
    - template:
        name: audit
        conditions: push
        log: {}
)");
  test::write_file(dir + "/dev.json",
                   R"({"source":"github","subject":"push","id":"e-dev","data":{"body":{"ref":"refs/heads/dev"}}})");
  test::write_file(dir + "/main.json",
                   R"({"source":"github","subject":"push","id":"e-main","data":{"body":{"ref":"refs/heads/main"}}})");
  test::write_file(dir + "/ok.json",
                   R"({"source":"slack","subject":"approve","id":"e-ok","data":{"user":"ada"}})");
  test::write_file(dir + "/other.json", R"({"source":"x","subject":"y"})");
  test::child_process run{{GANGLION_BINARY, "test", "-f", dir + "/sensor.yaml", "--event",
                           dir + "/dev.json", "--event", dir + "/main.json", "--event",
                           dir + "/ok.json", "--event", dir + "/other.json"}};
  ASSERT_EQ(run.wait(30s), 0) << run.output();
  auto out = run.output();
  auto at = [&](const std::string& text) {
    auto pos = out.find(text);
    EXPECT_NE(pos, std::string::npos) << "missing: " << text << "\n" << out;
    return pos;
  };
  auto e1 = at("event 1 (" + dir + "/dev.json): source=github subject=push id=e-dev");
  auto rejected = at(R"(dependency push: REJECTED — data filter #0 body.ref (string) = "^refs/heads/main$" did not match)");
  auto e2 = at("event 2 (");
  auto audit = at("trigger audit fires:");
  auto waits = at(R"(trigger release waits: condition "push && approval" holds events for: push)");
  auto e3 = at("event 3 (");
  auto release = at("trigger release fires:");
  auto e4 = at("event 4 (");
  at("no sensor has a dependency on x/y");
  EXPECT_LT(e1, rejected);
  EXPECT_LT(rejected, e2);
  EXPECT_LT(e2, audit);
  EXPECT_LT(audit, waits);
  EXPECT_LT(waits, e3);
  EXPECT_LT(e3, release);
  EXPECT_LT(release, e4);
  EXPECT_NE(out.find(R"("user":"ada")", release), std::string::npos) << out;
}

TEST(e2e_dry_run, an_unreadable_event_file_is_a_clear_error) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/sensor.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
  test::write_file(dir + "/bad.json", R"({"subject":"y"})");
  test::child_process run{{GANGLION_BINARY, "test", "-f", dir + "/sensor.yaml", "--event",
                           dir + "/bad.json"}};
  EXPECT_EQ(run.wait(30s), 1) << run.output();
  EXPECT_NE(run.output().find("\"source\""), std::string::npos) << run.output();
}

TEST(e2e_dry_run, the_quickstart_event_file_fires_the_quickstart_trigger) {
  const std::string quickstart = GANGLION_SOURCE_DIR "/examples/quickstart";
  test::child_process run{{GANGLION_BINARY, "test", "-f", quickstart, "--event",
                           quickstart + "/event.json"}};
  ASSERT_EQ(run.wait(30s), 0) << run.output();
  auto out = run.output();
  EXPECT_NE(out.find("source=webhook subject=example"), std::string::npos) << out;
  EXPECT_NE(out.find("dependency payload: pass"), std::string::npos) << out;
  EXPECT_NE(out.find("trigger log-message fires:"), std::string::npos) << out;
}

// What examples/quickstart/sensor.yaml's comment says its filter accepts: any body.message,
// whatever its type; only an event without one is rejected.
TEST(e2e_dry_run, the_quickstart_filter_accepts_any_message_and_rejects_none) {
  const std::string quickstart = GANGLION_SOURCE_DIR "/examples/quickstart";
  auto dir = test::temp_dir();
  std::vector<std::string> args{GANGLION_BINARY, "test", "-f", quickstart};
  const std::vector<std::string> bodies{R"({"message":"hello"})", R"({"message":3})",
                                        R"({"message":{"a":1}})", R"({"message":""})",
                                        R"({"text":"hello"})"};
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    auto file = fmt::format("{}/{}.json", dir, i);
    test::write_file(file, fmt::format(R"({{"source":"webhook","subject":"example","data":)"
                                       R"({{"header":{{}},"body":{}}}}})",
                                       bodies[i]));
    args.insert(args.end(), {"--event", file});
  }
  test::child_process run{args};
  ASSERT_EQ(run.wait(30s), 0) << run.output();
  auto out = run.output();
  for (std::size_t i = 0; i < bodies.size(); ++i) {
    auto start = out.find(fmt::format("event {} (", i + 1));
    ASSERT_NE(start, std::string::npos) << out;
    auto end = out.find(fmt::format("event {} (", i + 2));
    auto part = out.substr(start, end == std::string::npos ? std::string::npos : end - start);
    bool fires = part.find("trigger log-message fires:") != std::string::npos;
    EXPECT_EQ(fires, i + 1 < bodies.size()) << bodies[i] << "\n" << part;
  }
  EXPECT_NE(out.find("path 'body.message' does not exist"), std::string::npos) << out;
}

TEST(e2e_dry_run, a_plain_body_becomes_the_event_its_webhook_would_publish) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/m.yaml", R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: hooks
spec:
  webhook:
    example:
      port: "12000"
      endpoint: /example
      method: POST
      metadata:
        team: a
---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: s
spec:
  dependencies:
    - name: d
      eventSourceName: hooks
      eventName: example
      filters:
        data:
          - path: header.X-Trace.0
            type: string
            value: ["^t1$"]
          - path: body.seq
            type: number
            value: ["1"]
  triggers:
    - template:
        name: t
        log: {}
)");
  test::write_file(dir + "/body.json", "{ \"message\": \"hi\", \"seq\": {{seq}} }\n");
  test::child_process run{{GANGLION_BINARY, "test", "-f", dir + "/m.yaml", "--body",
                           dir + "/body.json", "--source", "hooks", "--subject", "example",
                           "--header", "X-Trace: t1"}};
  ASSERT_EQ(run.wait(30s), 0) << run.output();
  auto out = run.output();
  EXPECT_NE(out.find("event 1 (" + dir + "/body.json): source=hooks subject=example id="),
            std::string::npos)
    << out;
  EXPECT_NE(out.find(R"(data: {"header":{"Content-Length":["30"],"Content-Type":["application/json"],"X-Trace":["t1"]},"body":{"message":"hi","seq":1},"metadata":{"team":"a"}})"),
            std::string::npos)
    << out;
  EXPECT_NE(out.find("dependency d: pass"), std::string::npos) << out;
  EXPECT_NE(out.find("trigger t fires:"), std::string::npos) << out;
}

TEST(e2e_dry_run, the_load_generators_body_passes_the_bench_scenarios_filters) {
  auto dir = test::temp_dir();
  const std::string bench = GANGLION_SOURCE_DIR "/bench/scenarios";
  std::ifstream in{bench + "/webhook-http.yaml"};
  std::string yaml{std::istreambuf_iterator<char>{in}, {}};
  for (const auto& [from, to] : {std::pair{"${WEBHOOK_PORT}", "12000"}, {"${SINK_PORT}", "18080"}})
    for (auto at = yaml.find(from); at != std::string::npos; at = yaml.find(from))
      yaml.replace(at, std::string_view{from}.size(), to);
  test::write_file(dir + "/webhook-http.yaml", yaml);
  test::child_process run{{GANGLION_BINARY, "test", "-f", dir + "/webhook-http.yaml", "--body",
                           bench + "/event.json", "--source", "bench", "--subject", "ingest"}};
  ASSERT_EQ(run.wait(30s), 0) << run.output();
  auto out = run.output();
  EXPECT_NE(out.find("dependency pr: pass"), std::string::npos) << out;
  EXPECT_NE(out.find("trigger sink fires:"), std::string::npos) << out;
  EXPECT_NE(out.find(R"({"seq":"1"})"), std::string::npos) << out;
}

TEST(e2e_dry_run, missing_or_mismatched_inputs_are_usage_errors) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/m.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\n");
  test::write_file(dir + "/body.json", "{}");
  test::write_file(dir + "/bad.json", "{\"a\":");
  auto run = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {GANGLION_BINARY, "test", "-f", dir + "/m.yaml"});
    auto p = std::make_unique<test::child_process>(args);
    p->wait(30s);
    return p;
  };
  auto none = run({});
  EXPECT_EQ(none->wait(1s), 2) << none->output();
  EXPECT_NE(none->output().find("test needs --event FILE, or --body FILE with --source and "
                                "--subject"),
            std::string::npos)
    << none->output();
  auto alone = run({"--body", dir + "/body.json", "--source", "hooks"});
  EXPECT_EQ(alone->wait(1s), 2) << alone->output();
  EXPECT_NE(alone->output().find("--subject"), std::string::npos) << alone->output();
  auto both = run({"--body", dir + "/body.json", "--source", "a", "--subject", "b", "--event",
                   dir + "/body.json"});
  EXPECT_EQ(both->wait(1s), 2) << both->output();
  auto bad = run({"--body", dir + "/bad.json", "--source", "a", "--subject", "b"});
  EXPECT_EQ(bad->wait(1s), 1) << bad->output();
  EXPECT_NE(bad->output().find("the webhook would answer 400"), std::string::npos)
    << bad->output();
}
