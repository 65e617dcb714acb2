// The binary end to end: webhook → embedded bus → sensor → HTTP trigger → a real HTTP sink.

#include <thread>

#include "engine_process.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// A sensor whose HTTP trigger posts `payload` (YAML list items, indented for `payload:`).
std::string http_sensor(const std::string& deps, const std::string& triggers) {
  return fmt::format(R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: pipeline
spec:
  dependencies:
{}  triggers:
{})", deps, triggers);
}

std::string dep(const std::string& name, const std::string& source, const std::string& event) {
  return fmt::format("    - name: {}\n      eventSourceName: {}\n      eventName: {}\n", name,
                     source, event);
}

std::string http_trigger(const std::string& name, const std::string& url,
                         const std::string& conditions, const std::string& payload) {
  std::string out = fmt::format("    - template:\n        name: {}\n", name);
  if (!conditions.empty())
    out += fmt::format("        conditions: \"{}\"\n", conditions);
  out += fmt::format("        http:\n          url: {}\n          method: POST\n          payload:\n{}",
                     url, payload);
  return out;
}

std::string param(const std::string& dependency, const std::string& key_kind,
                  const std::string& key, const std::string& dest) {
  return fmt::format("            - src:\n                dependencyName: {}\n                {}: {}\n"
                     "              dest: {}\n",
                     dependency, key_kind, key, dest);
}

} // namespace

TEST(e2e_pipeline, single_dependency_delivers_the_payload_to_the_sink) {
  test::http_sink sink;
  auto port = test::free_port();
  e2e::engine_process engine{
    e2e::webhook_source("hooks", port, {"example"})
    + http_sensor(dep("d", "hooks", "example"),
                  http_trigger("to-sink", sink.url("/hook"), "",
                               param("d", "dataKey", "body.message", "msg")
                                 + param("d", "contextKey", "type", "kind")
                                 + param("d", "dataKey", "body.n", "n")))};
  auto r = e2e::post(port, "example", R"({"message":"hello","n":7})");
  EXPECT_EQ(r.status, 200) << r.error << r.body;
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  auto req = sink.requests().at(0);
  EXPECT_EQ(req.method, "POST");
  EXPECT_EQ(req.target, "/hook");
  EXPECT_EQ(req.body, R"({"msg":"hello","kind":"webhook","n":"7"})");
  EXPECT_EQ(req.header("Content-Type"), "application/json");
}

TEST(e2e_pipeline, and_condition_joins_the_latest_event_of_each_dependency) {
  test::http_sink sink;
  auto port = test::free_port();
  e2e::engine_process engine{
    e2e::webhook_source("hooks", port, {"a", "b"})
    + http_sensor(dep("a", "hooks", "a") + dep("b", "hooks", "b"),
                  http_trigger("join", sink.url("/join"), "a && b",
                               param("a", "dataKey", "body.n", "a")
                                 + param("b", "dataKey", "body.n", "b")))};
  for (int i = 1; i <= 3; ++i)
    EXPECT_EQ(e2e::post(port, "a", fmt::format(R"({{"n":"a{}"}})", i)).status, 200);
  ASSERT_TRUE(engine.wait_metric(e2e::dependency_events("pipeline", "a", "pass", 3)))
    << engine.metrics();
  EXPECT_TRUE(sink.requests().empty());
  EXPECT_EQ(e2e::post(port, "b", R"({"n":"b1"})").status, 200);
  ASSERT_TRUE(engine.wait_metric(e2e::triggers_fired("pipeline", "join", 1)))
    << engine.metrics() << engine.output();
  auto reqs = sink.requests();
  ASSERT_EQ(reqs.size(), 1u);
  EXPECT_EQ(reqs[0].body, R"({"a":"a3","b":"b1"})");
  // The join state was cleared: another b alone fires nothing; the next a fires with it.
  EXPECT_EQ(e2e::post(port, "b", R"({"n":"b2"})").status, 200);
  ASSERT_TRUE(engine.wait_metric(e2e::dependency_events("pipeline", "b", "pass", 2)))
    << engine.metrics();
  EXPECT_EQ(sink.requests().size(), 1u);
  EXPECT_EQ(e2e::post(port, "a", R"({"n":"a4"})").status, 200);
  ASSERT_TRUE(engine.wait_metric(e2e::triggers_fired("pipeline", "join", 2)))
    << engine.metrics() << engine.output();
  ASSERT_EQ(sink.requests().size(), 2u);
  EXPECT_EQ(sink.requests()[1].body, R"({"a":"a4","b":"b2"})");
}

TEST(e2e_pipeline, or_of_and_fires_on_either_branch) {
  test::http_sink sink;
  auto port = test::free_port();
  e2e::engine_process engine{
    e2e::webhook_source("hooks", port, {"a", "b", "c"})
    + http_sensor(dep("a", "hooks", "a") + dep("b", "hooks", "b") + dep("c", "hooks", "c"),
                  http_trigger("either", sink.url("/x"), "(a && b) || c",
                               param("c", "dataKey", "body.n", "c")
                                 + param("a", "dataKey", "body.n", "a")))};
  EXPECT_EQ(e2e::post(port, "c", R"({"n":"c1"})").status, 200);
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  EXPECT_EQ(sink.requests().at(0).body, R"({"c":"c1"})");
  EXPECT_EQ(e2e::post(port, "a", R"({"n":"a1"})").status, 200);
  ASSERT_TRUE(engine.wait_metric(e2e::dependency_events("pipeline", "a", "pass", 1)))
    << engine.metrics();
  EXPECT_EQ(sink.requests().size(), 1u);
  EXPECT_EQ(e2e::post(port, "b", R"({"n":"b1"})").status, 200);
  ASSERT_TRUE(sink.wait_for(2, 10s)) << engine.output();
  EXPECT_EQ(sink.requests().at(1).body, R"({"a":"a1"})");
}

TEST(e2e_pipeline, two_triggers_keep_independent_state) {
  test::http_sink sink;
  auto port = test::free_port();
  e2e::engine_process engine{
    e2e::webhook_source("hooks", port, {"a", "b"})
    + http_sensor(dep("a", "hooks", "a") + dep("b", "hooks", "b"),
                  http_trigger("both", sink.url("/both"), "a && b",
                               param("b", "dataKey", "body.n", "b"))
                    + http_trigger("only-a", sink.url("/only-a"), "a",
                                   param("a", "dataKey", "body.n", "a")))};
  EXPECT_EQ(e2e::post(port, "a", R"({"n":"a1"})").status, 200);
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  EXPECT_EQ(sink.requests().at(0).target, "/only-a");
  EXPECT_EQ(e2e::post(port, "b", R"({"n":"b1"})").status, 200);
  ASSERT_TRUE(sink.wait_for(2, 10s)) << engine.output();
  EXPECT_EQ(sink.requests().at(1).target, "/both");
  EXPECT_EQ(sink.requests().at(1).body, R"({"b":"b1"})");
}

TEST(e2e_pipeline, data_filter_lets_only_matching_events_through) {
  test::http_sink sink;
  auto port = test::free_port();
  auto deps = dep("d", "hooks", "example") + R"(      filters:
        data:
          - path: body.action
            type: string
            value: ["^opened$", "^reopened$"]
          - path: body.count
            type: number
            comparator: ">"
            value: ["10"]
)";
  e2e::engine_process engine{
    e2e::webhook_source("hooks", port, {"example"})
    + http_sensor(deps, http_trigger("t", sink.url("/f"), "",
                                     param("d", "dataKey", "body.action", "action")))};
  EXPECT_EQ(e2e::post(port, "example", R"({"action":"closed","count":50})").status, 200);
  EXPECT_EQ(e2e::post(port, "example", R"({"action":"opened","count":5})").status, 200);
  EXPECT_EQ(e2e::post(port, "example", R"({"action":"reopened","count":11})").status, 200);
  ASSERT_TRUE(engine.wait_metric(e2e::dependency_events("pipeline", "d", "fail", 2)))
    << engine.metrics();
  ASSERT_TRUE(engine.wait_metric(e2e::triggers_fired("pipeline", "t", 1)))
    << engine.metrics() << engine.output();
  ASSERT_EQ(sink.requests().size(), 1u);
  EXPECT_EQ(sink.requests().at(0).body, R"({"action":"reopened"})");
}
