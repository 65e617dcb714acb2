// Process lifecycle: readiness, status, supervision of a failing source, graceful stop, validate.

#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "engine_process.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

TEST(e2e_lifecycle, sigterm_finishes_in_flight_triggers_and_exits_zero) {
  test::http_sink sink;
  sink.set_delay(500ms);
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"}) + e2e::hook_sensor(fmt::format(R"(    - template:
        name: slow
        http:
          url: {}
)", sink.url("/slow")))};
  EXPECT_EQ(e2e::post(port, "example", "{}").status, 200);
  // Judged, and its firing waits for the sink's slow answer.
  ASSERT_TRUE(engine.wait_metric("ganglion_work_in_flight 1")) << engine.output();
  auto signalled = std::chrono::steady_clock::now();
  engine.process().signal(SIGTERM);
  EXPECT_EQ(engine.process().wait(15s), 0) << engine.output();
  // The engine waited for the sink's slow answer before exiting.
  EXPECT_GE(std::chrono::steady_clock::now() - signalled, 300ms) << engine.output();
  EXPECT_EQ(sink.requests().size(), 1u) << engine.output();
  EXPECT_EQ(engine.output().find("still in flight"), std::string::npos) << engine.output();
}

TEST(e2e_lifecycle, a_source_that_cannot_bind_goes_to_error_and_the_rest_keeps_working) {
  test::http_sink occupant; // holds a port the event source asks for
  test::http_sink sink;
  auto good_port = test::free_port();
  auto manifests = e2e::webhook_source("good", good_port, {"example"})
                   + "---\n" + e2e::webhook_source("bad", occupant.port(), {"taken"})
                   + fmt::format(R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: s
spec:
  dependencies:
    - name: d
      eventSourceName: good
      eventName: example
  triggers:
    - template:
        name: t
        http:
          url: {}
)", sink.url("/ok"));
  e2e::engine_process engine{manifests, {}, false};
  std::string status;
  test::eventually([&] {
    status = engine.status();
    return status.find("\"Error\"") != std::string::npos;
  });
  EXPECT_NE(status.find("\"phase\": \"Error\""), std::string::npos) << status;
  EXPECT_NE(status.find("already in use"), std::string::npos) << status;
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/ready")).status, 503);
  EXPECT_EQ(e2e::post(good_port, "example", "{}").status, 200);
  EXPECT_TRUE(sink.wait_for(1, 10s)) << engine.output();
}

TEST(e2e_lifecycle, validate_reports_located_errors_and_exit_codes) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/good.yaml", e2e::webhook_source("hooks", 12000, {"example"}));
  test::write_file(dir + "/bad.yaml", R"(apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: broken
spec:
  dependencies:
    - name: d
      eventSourceName: hooks
  triggers:
    - template:
        name: t
        conditions: "d && missing"
        log: {}
)");
  test::child_process good{{GANGLION_BINARY, "validate", "-f", dir + "/good.yaml"}};
  EXPECT_EQ(good.wait(20s), 0) << good.output();
  test::child_process bad{{GANGLION_BINARY, "validate", "-f", dir + "/bad.yaml"}};
  EXPECT_EQ(bad.wait(20s), 1) << bad.output();
  auto out = bad.output();
  EXPECT_NE(out.find(dir + "/bad.yaml:7:"), std::string::npos) << out;
  EXPECT_NE(out.find("eventName"), std::string::npos) << out;
  EXPECT_NE(out.find("missing"), std::string::npos) << out;
}

TEST(e2e_lifecycle, run_refuses_invalid_manifests_with_exit_code_one) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/bad.yaml", "apiVersion: argoproj.io/v1alpha1\nkind: Sensor\nspec: {}\n");
  test::child_process proc{{GANGLION_BINARY, "run", "-f", dir + "/bad.yaml"}};
  EXPECT_EQ(proc.wait(20s), 1) << proc.output();
}

TEST(e2e_lifecycle, in_memory_with_a_data_dir_is_a_usage_error) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/m.yaml", e2e::webhook_source("hooks", test::free_port(), {"example"}));
  test::child_process proc{{GANGLION_BINARY, "run", "-f", dir + "/m.yaml", "--in-memory",
                            "--data-dir", dir + "/data"}};
  EXPECT_EQ(proc.wait(20s), 2) << proc.output();
  auto out = proc.output();
  EXPECT_NE(out.find("excludes"), std::string::npos) << out;
  EXPECT_NE(out.find("--in-memory"), std::string::npos) << out;
  EXPECT_NE(out.find("--data-dir"), std::string::npos) << out;
  EXPECT_FALSE(std::filesystem::exists(dir + "/data")) << "nothing started";
}

TEST(e2e_lifecycle, a_trigger_type_that_cannot_run_is_reported_and_its_siblings_fire) {
  test::http_sink sink;
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"}) + e2e::hook_sensor(e2e::unrun_trigger("workflow") + fmt::format(R"(    - template:
        name: notify
        http:
          url: {}
)", sink.url("/n")))};
  auto status = test::http_request("GET", engine.admin_url("/v1/status")).body;
  EXPECT_NE(status.find("spec.triggers[0].template.pulsar: not run by ganglion yet"), std::string::npos)
    << status;
  EXPECT_EQ(e2e::post(port, "example", "{}").status, 200);
  EXPECT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  EXPECT_TRUE(engine.wait_metric(R"(ganglion_triggers_dropped_total{sensor="s"} 1)"))
    << engine.metrics();
}

TEST(e2e_lifecycle, explain_shows_why_a_dependency_rejected_an_event) {
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"}) + R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: picky
spec:
  dependencies:
    - name: only-main
      eventSourceName: hooks
      eventName: example
      filters:
        data:
          - path: body.ref
            type: string
            value: ["^main$"]
  triggers:
    - template:
        name: t
        log: {}
)"};
  EXPECT_EQ(e2e::post(port, "example", R"({"ref":"dev"})").status, 200);
  EXPECT_EQ(e2e::post(port, "example", R"({"other":1})").status, 200);
  ASSERT_TRUE(engine.wait_idle(2));
  auto body = test::http_request("GET", engine.admin_url("/v1/explain?sensor=picky")).body;
  EXPECT_NE(body.find("\"only-main\""), std::string::npos) << body;
  EXPECT_NE(body.find("\"kind\": \"data\""), std::string::npos) << body;
  EXPECT_NE(body.find("path 'body.ref' does not exist"), std::string::npos) << body;
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/v1/explain?sensor=nope")).status, 404);
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/v1/explain")).status, 400);
}

TEST(e2e_lifecycle, explain_shows_what_a_trigger_waits_for_and_what_no_source_feeds) {
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"push", "approve"}) + R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: release
spec:
  dependencies:
    - name: push
      eventSourceName: hooks
      eventName: push
    - name: approval
      eventSourceName: hooks
      eventName: approve
    - name: audit
      eventSourceName: elsewhere
      eventName: audit
  triggers:
    - template:
        name: ship
        conditions: push && approval
        log: {}
    - template:
        name: record
        conditions: audit
        log: {}
)"};
  auto explain = [&] {
    return nlohmann::json::parse(
      test::http_request("GET", engine.admin_url("/v1/explain?sensor=release")).body, nullptr,
      false);
  };
  // Before any event: every dependency is listed, and the one no source feeds says why.
  auto before = explain();
  ASSERT_TRUE(before.is_object()) << before;
  for (const char* dep : {"push", "approval", "audit"})
    EXPECT_TRUE(before["dependencies"].contains(dep)) << before.dump(2);
  EXPECT_NE(before["unfed"].value("audit", "").find(R"(no loaded EventSource is named "elsewhere")"),
            std::string::npos)
    << before.dump(2);
  EXPECT_FALSE(before["unfed"].contains("push")) << before.dump(2);
  EXPECT_TRUE(before["waiting"].empty()) << before.dump(2);

  ASSERT_EQ(e2e::post(port, "push", R"({"commit":"4f2a"})").status, 200);
  nlohmann::json waiting;
  ASSERT_TRUE(test::eventually([&] {
    waiting = explain()["waiting"];
    return waiting.contains("ship");
  })) << waiting.dump(2) << engine.output();
  EXPECT_EQ(waiting["ship"]["condition"], "push && approval") << waiting.dump(2);
  EXPECT_EQ(waiting["ship"]["waitsFor"], nlohmann::json::array({"approval"})) << waiting.dump(2);
  ASSERT_TRUE(waiting["ship"]["holds"].contains("push")) << waiting.dump(2);
  EXPECT_FALSE(waiting["ship"]["holds"]["push"]["eventId"].get<std::string>().empty());
  EXPECT_FALSE(waiting["ship"]["holds"]["push"]["since"].get<std::string>().empty());
  EXPECT_FALSE(waiting.contains("record")) << waiting.dump(2);

  // The condition completes: the trigger fires and waits no more.
  ASSERT_EQ(e2e::post(port, "approve", R"({"by":"ada"})").status, 200);
  ASSERT_TRUE(engine.wait_metric(e2e::triggers_fired("release", "ship", 1))) << engine.output();
  EXPECT_TRUE(test::eventually([&] { return explain()["waiting"].empty(); }))
    << explain().dump(2);
}

TEST(e2e_lifecycle, the_start_summary_counts_a_trigger_that_went_to_error_and_stopped_ends_the_log) {
  auto port = test::free_port();
  auto dir = test::temp_dir();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"})
                               + e2e::hook_sensor(R"(    - template:
        name: pod
        k8s:
          operation: create
          source:
            resource: {apiVersion: v1, kind: Pod, metadata: {generateName: p-}}
    - template:
        name: note
        log: {}
)"),
                             {}, true, {"--kubeconfig", dir + "/missing-kubeconfig"}};
  ASSERT_TRUE(test::eventually([&] {
    return engine.output().find("1 trigger and 0 sources will not run") != std::string::npos;
  })) << engine.output();
  engine.process().signal(SIGTERM);
  ASSERT_EQ(engine.process().wait(15s), 0) << engine.output();
  auto out = engine.output();
  while (!out.empty() && out.back() == '\n')
    out.pop_back();
  auto last = out.substr(out.rfind('\n') + 1);
  EXPECT_NE(last.find("stopped"), std::string::npos) << out;
  EXPECT_EQ(out.find("0 more"), std::string::npos) << out;
}
