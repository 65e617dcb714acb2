// `ganglion test`: verdicts, firings and waiting conditions for a sequence of event files.

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
