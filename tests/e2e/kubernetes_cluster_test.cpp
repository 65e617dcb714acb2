// `ganglion run --from-cluster` against the test Kubernetes API server: the EventSources and
// Sensors of the cluster run as files do (a webhook event fires the sensor's HTTP trigger),
// objects created, updated and deleted while it runs take effect, an invalid object (or one a
// `-f` file already names) gets False conditions with its `path: message` while the others
// run, valid objects get Argo's True conditions, a 403 on a list is a clear error that never
// stops the process, and a webhook's authSecret comes from a Kubernetes Secret. An empty `-f`
// directory beside the cluster is no error.

#include <optional>

#include <nlohmann/json.hpp>

#include "cluster_options.hpp"
#include "engine_process.hpp"
#include "files.hpp"
#include "http_sink.hpp"
#include "kube/api_server.hpp"
#include "kube/text.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

/// EventSource `hooks`: a webhook event `example` on `port`.
json event_source(std::uint16_t port) {
  return {{"apiVersion", "argoproj.io/v1alpha1"},
          {"kind", "EventSource"},
          {"metadata", {{"name", "hooks"}, {"namespace", "default"}}},
          {"spec",
           {{"webhook",
             {{"example",
               {{"port", std::to_string(port)}, {"endpoint", "/example"}, {"method", "POST"}}}}}}}};
}

/// Sensor `name` on hooks/example whose HTTP trigger `t` posts the event's `msg` to `url`.
json sensor(const std::string& name, const std::string& url) {
  return e2e::posting_sensor({.name = name,
                              .event_source = "hooks",
                              .url = url,
                              .data_key = "body.msg",
                              .dest = "msg"});
}

/// The condition `type` of the object's status; null when absent.
json condition_of(const json& object, const std::string& type) {
  if (!object.contains("status") || !object["status"].contains("conditions"))
    return nullptr;
  for (const auto& c : object["status"]["conditions"])
    if (c.value("type", "") == type)
      return c;
  return nullptr;
}

/// True when every condition of `types` has status `status`.
bool conditions_are(const json& object, const std::vector<std::string>& types,
                    const std::string& status) {
  for (const auto& t : types) {
    auto c = condition_of(object, t);
    if (c.is_null() || c.value("status", "") != status)
      return false;
  }
  return true;
}

/// The argoproj.io object `kind` default/`name` once every condition of `types` has `status`.
std::optional<json> wait_for_conditions(test::kube::api_server& server, const std::string& kind,
                                        const std::string& name, std::vector<std::string> types,
                                        std::string status) {
  return server.wait_for_object("argoproj.io/v1alpha1", kind, "default", name,
                                [&](const json& o) { return conditions_are(o, types, status); });
}

/// The targets of the requests `sink` received.
std::vector<std::string> targets(const test::http_sink& sink) {
  std::vector<std::string> out;
  for (const auto& r : sink.requests())
    out.push_back(r.target);
  return out;
}

} // namespace

TEST(e2e_kubernetes_cluster, objects_run_and_changes_while_running_take_effect) {
  test::kube::api_server server;
  test::http_sink sink;
  auto port = test::free_port();
  server.put(event_source(port));
  server.put(sensor("s", sink.url("/one")));
  e2e::engine_process engine{"", e2e::from_cluster(server)};

  ASSERT_EQ(e2e::post(port, "example", R"({"msg":"a"})").status, 200) << engine.output();
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  EXPECT_EQ(sink.requests()[0].body, R"({"msg":"a"})");

  // Argo's conditions, True, through the status subresource.
  auto es =
    wait_for_conditions(server, "EventSource", "hooks", {"SourcesProvided", "Deployed"}, "True");
  ASSERT_TRUE(es) << engine.output();
  EXPECT_FALSE(condition_of(*es, "Deployed").value("lastTransitionTime", "").empty());
  ASSERT_TRUE(wait_for_conditions(server, "Sensor", "s",
                                  {"DependenciesProvided", "TriggersProvided", "Deployed"}, "True"))
    << engine.output();
  EXPECT_TRUE(server.wait_for_request([](const test::kube::request_record& r) {
    return r.method == "PATCH" && r.target.ends_with("/namespaces/default/sensors/s/status");
  }));

  // Updated while running: the new trigger URL applies (the sensor is reconfigured).
  auto reloads = engine.reloads();
  server.update("argoproj.io/v1alpha1", "Sensor", "default", "s", [&](json& o) {
    o["spec"]["triggers"][0]["template"]["http"]["url"] = sink.url("/two");
  });
  ASSERT_TRUE(engine.wait_reloads(reloads + 1)) << engine.output();
  ASSERT_EQ(e2e::post(port, "example", R"({"msg":"b"})").status, 200);
  ASSERT_TRUE(sink.wait_for(2, 10s)) << engine.output();
  EXPECT_EQ(targets(sink), (std::vector<std::string>{"/one", "/two"}));

  auto settled = engine.reloads();

  // Deleted while running: the sensor stops, the event source still takes events.
  server.remove("argoproj.io/v1alpha1", "Sensor", "default", "s");
  ASSERT_TRUE(engine.wait_reloads(settled + 1)) << engine.output();
  ASSERT_TRUE(
    test::eventually([&] { return engine.status().find("\"s/t\"") == std::string::npos; }))
    << engine.status();
  // The engine's own status writes come back as MODIFIED events: they are no change.
  EXPECT_EQ(engine.reloads(), settled + 1) << engine.output();
  ASSERT_EQ(e2e::post(port, "example", R"({"msg":"c"})").status, 200);
  EXPECT_TRUE(
    engine.wait_metric(R"(ganglion_events_accepted_total{eventsource="hooks",event="example"} 3)"))
    << engine.metrics();
  EXPECT_EQ(sink.requests().size(), 2u);

  // Created while running: a new sensor runs.
  server.put(sensor("s2", sink.url("/three")));
  ASSERT_TRUE(engine.wait_reloads(settled + 2)) << engine.output();
  ASSERT_EQ(e2e::post(port, "example", R"({"msg":"d"})").status, 200);
  ASSERT_TRUE(sink.wait_for(3, 10s)) << engine.output();
  EXPECT_EQ(sink.requests()[2].target, "/three");
}

TEST(e2e_kubernetes_cluster, an_empty_file_directory_beside_the_cluster_is_no_error) {
  test::kube::api_server server;
  test::http_sink sink;
  auto port = test::free_port();
  server.put(event_source(port));
  server.put(sensor("s", sink.url("/one")));
  auto options = e2e::from_cluster(server);
  options.manifest_file = true;
  e2e::engine_process engine{e2e::manifest_path{test::temp_dir()}, options};
  ASSERT_EQ(e2e::post(port, "example", R"({"msg":"a"})").status, 200) << engine.output();
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  EXPECT_EQ(engine.output().find("no *.yaml"), std::string::npos) << engine.output();
}

TEST(e2e_kubernetes_cluster, an_invalid_object_is_false_with_its_problem_and_the_others_run) {
  test::kube::api_server server;
  test::http_sink sink;
  auto port = test::free_port();
  // -f and --from-cluster together: the EventSource from a file, the sensors from the cluster;
  // the cluster's EventSource of the same name is a duplicate.
  server.put(event_source(port));
  server.put(sensor("good", sink.url("/good")));
  auto options = e2e::from_cluster(server);
  options.manifest_file = true;
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"}), options};
  auto duplicate =
    wait_for_conditions(server, "EventSource", "hooks", {"SourcesProvided", "Deployed"}, "False");
  ASSERT_TRUE(duplicate) << engine.output();
  auto sources = condition_of(*duplicate, "SourcesProvided");
  EXPECT_EQ(sources.value("reason", ""), "InvalidEventSource");
  EXPECT_EQ(sources.value("message", ""),
            "metadata.name: an EventSource named hooks is already loaded from "
              + engine.manifest_file() + "; ganglion runs one of a kind and name in a namespace");

  auto bad = sensor("bad", sink.url("/bad"));
  bad["spec"]["triggers"][0]["template"]["http"].erase("url");
  server.put(bad);
  auto written =
    wait_for_conditions(server, "Sensor", "bad", {"TriggersProvided", "Deployed"}, "False");
  ASSERT_TRUE(written) << engine.output();
  auto triggers = condition_of(*written, "TriggersProvided");
  EXPECT_EQ(triggers.value("reason", ""), "InvalidTriggers");
  EXPECT_TRUE(triggers.value("message", "").starts_with("spec.triggers[0].template.http"))
    << triggers.dump();
  EXPECT_EQ(condition_of(*written, "DependenciesProvided").value("status", ""), "True");
  EXPECT_EQ(condition_of(*written, "Deployed").value("reason", ""), "InvalidSpec");
  EXPECT_NE(engine.output().find("Sensor default/bad: spec.triggers[0].template.http"),
            std::string::npos)
    << engine.output();

  ASSERT_EQ(e2e::post(port, "example", R"({"msg":"a"})").status, 200);
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  EXPECT_EQ(targets(sink), (std::vector<std::string>{"/good"}));
  EXPECT_TRUE(wait_for_conditions(
    server, "Sensor", "good", {"DependenciesProvided", "TriggersProvided", "Deployed"}, "True"));

  // Fixed: it runs, and its conditions turn True.
  server.update("argoproj.io/v1alpha1", "Sensor", "default", "bad", [&](json& o) {
    o["spec"]["triggers"][0]["template"]["http"]["url"] = sink.url("/bad");
  });
  EXPECT_TRUE(wait_for_conditions(server, "Sensor", "bad",
                                  {"DependenciesProvided", "TriggersProvided", "Deployed"}, "True"))
    << engine.output();
}

TEST(e2e_kubernetes_cluster, a_forbidden_list_is_a_clear_error_and_the_process_keeps_running) {
  test::kube::api_server server;
  test::http_sink sink;
  auto port = test::free_port();
  server.put(event_source(port));
  server.put(sensor("s", sink.url("/hook")));
  server.forbid("list", "sensors");
  auto options = e2e::from_cluster(server);
  options.wait_ready = false;
  e2e::engine_process engine{"", options};

  std::string status;
  ASSERT_TRUE(test::eventually(
    [&] {
      status = engine.status();
      return status.find("sensors.argoproj.io is forbidden") != std::string::npos;
    },
    20s))
    << status << engine.output();
  EXPECT_NE(engine.output().find("HTTP 403: sensors.argoproj.io is forbidden"), std::string::npos)
    << engine.output();
  EXPECT_EQ(test::http_request("GET", engine.admin_url("/ready")).status, 503);
  EXPECT_TRUE(engine.process().running());

  // Once allowed, the sensor runs.
  server.allow_all();
  ASSERT_TRUE(test::wait_http_ok(engine.admin_url("/ready"), 30s)) << engine.output();
  ASSERT_TRUE(test::eventually(
    [&] {
      return e2e::post(port, "example", R"({"msg":"a"})").status == 200 && sink.wait_for(1, 1s);
    },
    20s))
    << engine.output();
}

TEST(e2e_kubernetes_cluster, a_webhook_auth_secret_is_read_from_a_kubernetes_secret) {
  test::kube::api_server server;
  auto port = test::free_port();
  auto secret = [](const std::string& token) {
    return json{{"apiVersion", "v1"},
                {"kind", "Secret"},
                {"metadata", {{"name", "hook-token"}, {"namespace", "default"}}},
                {"data", {{"token", test::kube::base64_encode(token + "\n")}}}};
  };
  server.put(secret("first"));
  auto es = event_source(port);
  es["spec"]["webhook"]["example"]["authSecret"] = {{"name", "hook-token"}, {"key", "token"}};
  server.put(es);
  e2e::engine_process engine{"", e2e::from_cluster(server)};

  EXPECT_EQ(e2e::post(port, "example", "{}", {"Authorization: Bearer first"}).status, 200)
    << engine.output();
  EXPECT_EQ(e2e::post(port, "example", "{}", {"Authorization: Bearer other"}).status, 401);

  // A changed Secret is read when the webhook starts again (here: its event changed).
  server.put(secret("second"));
  auto reloads = engine.reloads();
  server.update("argoproj.io/v1alpha1", "EventSource", "default", "hooks", [](json& o) {
    o["spec"]["webhook"]["example"]["metadata"] = {{"v", "2"}};
  });
  ASSERT_TRUE(engine.wait_reloads(reloads + 1)) << engine.output();
  ASSERT_TRUE(test::eventually([&] {
    return e2e::post(port, "example", "{}", {"Authorization: Bearer second"}).status == 200;
  }))
    << engine.output();
  EXPECT_EQ(e2e::post(port, "example", "{}", {"Authorization: Bearer first"}).status, 401);
}
