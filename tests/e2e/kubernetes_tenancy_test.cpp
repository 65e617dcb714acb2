// Namespaces are boundaries in cluster mode (issue 31), driven through the binary against the
// test Kubernetes API server with two tenants, `victim` and `attacker`, each of whom may only
// create EventSources, Sensors and Secrets in their own namespace. Each attack that once
// worked is refused with a clear reason, and the same manifests keep working inside their own
// namespace: a Sensor never receives another namespace's events, and an EventSource created
// first under the victim's name neither displaces the victim's nor feeds the victim's Sensor; a
// resource source watches, and a k8s trigger writes, only what its own service account may
// (impersonation, judged by the server's RBAC); a git trigger source reads no local path and
// clones nowhere outside its root; a file trigger source does not read the engine's files.

#include <filesystem>

#include <nlohmann/json.hpp>

#include "cluster_options.hpp"
#include "engine_process.hpp"
#include "eventually.hpp"
#include "files.hpp"
#include "http_sink.hpp"
#include "kube/api_server.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

/// EventSource `name` of `ns`: a webhook event `example` on `port`.
json event_source(const std::string& ns, const std::string& name, std::uint16_t port) {
  return {{"apiVersion", "argoproj.io/v1alpha1"},
          {"kind", "EventSource"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"spec",
           {{"webhook",
             {{"example",
               {{"port", std::to_string(port)}, {"endpoint", "/example"}, {"method", "POST"}}}}}}}};
}

/// Sensor `name` of `ns` on `source`/example whose HTTP trigger posts the event's body to `url`.
json sensor(const std::string& ns, const std::string& name, const std::string& source,
            const std::string& url) {
  return e2e::posting_sensor({.ns = ns, .name = name, .event_source = source, .url = url});
}

/// How many requests `sink` received on `target`.
std::size_t received(const test::http_sink& sink, const std::string& target) {
  std::size_t n = 0;
  for (const auto& r : sink.requests())
    n += r.target == target ? 1 : 0;
  return n;
}

/// The phase /v1/status shows for component `kind` `name`; empty when it shows none.
std::string phase_of(const e2e::engine_process& engine, const std::string& kind,
                     const std::string& name) {
  auto status = json::parse(engine.status(), nullptr, false);
  if (status.is_discarded())
    return {};
  for (const auto& c : status["components"])
    if (c.value("kind", "") == kind && c.value("name", "") == name)
      return c.value("phase", "");
  return {};
}

/// True once /metrics of `engine` holds `line` (e2e::dependency_events …).
bool metrics_show(const e2e::engine_process& engine, const std::string& line) {
  return test::eventually([&] { return engine.metrics().find(line) != std::string::npos; });
}

} // namespace

TEST(e2e_tenancy, a_sensor_never_receives_another_namespaces_events) {
  test::kube::api_server server;
  test::http_sink sink;
  auto port = test::free_port();
  server.put(event_source("victim", "payments", port));
  server.put(sensor("victim", "audit", "payments", sink.url("/victim")));
  // The attacker names the victim's EventSource from their own namespace; its own EventSource
  // `signal` (dependency s) is the sentinel: the spy handles its events in the bus's order.
  auto signal_port = test::free_port();
  server.put(event_source("attacker", "signal", signal_port));
  auto spy = sensor("attacker", "spy", "payments", sink.url("/attacker"));
  spy["spec"]["dependencies"].push_back(
    {{"name", "s"}, {"eventSourceName", "signal"}, {"eventName", "example"}});
  spy["spec"]["triggers"][0]["template"]["conditions"] = "d || s";
  server.put(spy);
  auto options = e2e::from_cluster(server, {"--all-namespaces"});
  auto data = options.data_dir = test::temp_dir() + "/data";
  e2e::engine_process engine{"", options};

  ASSERT_EQ(e2e::post(port, "example", R"({"card":"4111"})").status, 200) << engine.output();
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  ASSERT_EQ(e2e::post(port, "example", R"({"card":"5500"})").status, 200) << engine.output();
  ASSERT_TRUE(sink.wait_for(2, 10s)) << engine.output();
  ASSERT_EQ(e2e::post(signal_port, "example", "{}").status, 200) << engine.output();
  ASSERT_TRUE(metrics_show(engine, e2e::dependency_events("attacker/spy", "s", "pass", 1)))
    << engine.metrics();
  EXPECT_EQ(received(sink, "/victim"), 2u);
  EXPECT_NE(engine.metrics().find(e2e::dependency_events("attacker/spy", "d", "pass", 0)),
            std::string::npos)
    << "the attacker's Sensor got the victim's events\n" << engine.metrics();

  // The attacker's dependency is unresolved, and says where it was looked for.
  EXPECT_NE(engine.output().find("no loaded EventSource of namespace attacker is named "
                                 "\"payments\""),
            std::string::npos)
    << engine.output();
  EXPECT_EQ(phase_of(engine, "sensor", "attacker/spy"), "Running") << engine.status();
  // Each Sensor's durable state has a folder of its namespace's.
  EXPECT_TRUE(std::filesystem::is_directory(data + "/namespaces/victim/sensors/audit"));
  EXPECT_TRUE(std::filesystem::is_directory(data + "/namespaces/attacker/sensors/spy"));
}

TEST(e2e_tenancy, an_event_source_squatting_the_victims_name_displaces_and_feeds_nothing) {
  test::kube::api_server server;
  test::http_sink sink;
  auto attacker_port = test::free_port();
  auto victim_port = test::free_port();
  // Created first, under the name the victim will use.
  server.put(event_source("attacker", "payments", attacker_port));
  server.put(sensor("attacker", "own", "payments", sink.url("/attacker")));
  e2e::engine_process engine{"", e2e::from_cluster(server, {"--all-namespaces"})};
  server.put(event_source("victim", "payments", victim_port));
  server.put(sensor("victim", "audit", "payments", sink.url("/victim")));

  ASSERT_TRUE(test::eventually([&] {
    return phase_of(engine, "source", "victim/payments/example") == "Running"
           && phase_of(engine, "sensor", "victim/audit") == "Running";
  }))
    << engine.status() << engine.output();
  EXPECT_EQ(phase_of(engine, "source", "attacker/payments/example"), "Running");
  auto victim = server.wait_for_object(
    "argoproj.io/v1alpha1", "EventSource", "victim", "payments", [](const json& o) {
      for (const auto& c : o.value("status", json::object()).value("conditions", json::array()))
        if (c.value("type", "") == "Deployed")
          return c.value("status", "") == "True";
      return false;
    });
  EXPECT_TRUE(victim) << "the victim's EventSource is not refused as a duplicate\n"
                      << engine.output();

  // Events injected through the attacker's EventSource reach the attacker's Sensor only.
  ASSERT_EQ(e2e::post(attacker_port, "example", R"({"forged":true})").status, 200);
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  ASSERT_EQ(e2e::post(victim_port, "example", R"({"real":true})").status, 200);
  ASSERT_TRUE(sink.wait_for(2, 10s)) << engine.output();
  // The forged event was accepted before the real one, so the victim's Sensor, which handles
  // events in the bus's order, had judged it before the real one fired.
  EXPECT_NE(engine.metrics().find(e2e::dependency_events("victim/audit", "d", "pass", 1)),
            std::string::npos)
    << engine.metrics();
  EXPECT_EQ(received(sink, "/attacker"), 1u);
  ASSERT_EQ(received(sink, "/victim"), 1u);
  for (const auto& r : sink.requests()) {
    if (r.target == "/victim") {
      EXPECT_EQ(json::parse(r.body)["body"], R"({"real":true})")
        << "Argo's dataKey of an object gives its JSON text";
    }
  }
}

namespace {

constexpr const char* engine_user = "system:serviceaccount:argo-events:ganglion";

/// An RBAC-enforcing server where the engine has deploy/rbac/cluster-role.yaml's rules (it may
/// impersonate service accounts), and the attacker's own account may watch its ConfigMaps.
std::unique_ptr<test::kube::api_server> rbac_server() {
  test::kube::server_options options;
  options.rbac = true;
  options.token_users = {{"engine-token", {engine_user}}};
  auto server = std::make_unique<test::kube::api_server>(options);
  server->grant("", "ganglion",
                {{{"argoproj.io"}, {"eventsources", "sensors", "eventbus"}, {"get", "list", "watch"}},
                 {{"argoproj.io"},
                  {"eventsources/status", "sensors/status", "eventbus/status"},
                  {"get", "update", "patch"}},
                 {{""}, {"secrets"}, {"get", "list", "watch"}},
                 {{""}, {"serviceaccounts"}, {"impersonate"}}},
                {test::kube::rbac_subject::service_account("argo-events", "ganglion")});
  server->grant_service_account("attacker", "default",
                                {{{""}, {"configmaps"}, {"get", "list", "watch", "create"}}});
  return server;
}

/// EventSource `name` of `ns`: a resource source `example` on `resource` of namespace `watched`.
json resource_source(const std::string& ns, const std::string& name, const std::string& watched,
                     const std::string& resource) {
  return {{"apiVersion", "argoproj.io/v1alpha1"},
          {"kind", "EventSource"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"spec",
           {{"resource",
             {{"example",
               {{"namespace", watched},
                {"version", "v1"},
                {"resource", resource},
                {"eventTypes", json::array({"ADD"})}}}}}}}};
}

} // namespace

TEST(e2e_tenancy, an_event_source_watches_only_what_its_own_account_may) {
  auto server = rbac_server();
  test::http_sink sink;
  server->put({{"apiVersion", "v1"},
               {"kind", "Secret"},
               {"metadata", {{"name", "db"}, {"namespace", "victim"}}},
               {"data", {{"password", "c3VwZXItc2VjcmV0LXZhbHVl"}}}});
  // The attack: the victim's Secrets through a resource source of the attacker's namespace.
  server->put(resource_source("attacker", "steal", "victim", "secrets"));
  server->put(sensor("attacker", "exfiltrate", "steal", sink.url("/stolen")));
  // The same manifests on what the attacker's own account may watch.
  server->put(resource_source("attacker", "own", "attacker", "configmaps"));
  server->put(sensor("attacker", "mine", "own", sink.url("/own")));
  auto path = test::temp_dir() + "/kubeconfig";
  test::write_file(path, server->kubeconfig("engine-token"));
  e2e::engine_options options;
  options.manifest_file = false;
  options.wait_ready = false;
  options.extra_args = {"--from-cluster", "--all-namespaces", "--kubeconfig", path};
  e2e::engine_process engine{"", options};

  ASSERT_TRUE(test::eventually([&] {
    return phase_of(engine, "source", "attacker/own/example") == "Running";
  }))
    << engine.status() << engine.output();
  server->put({{"apiVersion", "v1"},
               {"kind", "ConfigMap"},
               {"metadata", {{"name", "settings"}, {"namespace", "attacker"}}},
               {"data", {{"mode", "fast"}}}});
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  EXPECT_EQ(received(sink, "/own"), 1u);

  // The victim's Secrets: refused by RBAC, as the attacker's account, and said so.
  ASSERT_TRUE(test::eventually([&] {
    return engine.status().find("system:serviceaccount:attacker:default") != std::string::npos;
  }))
    << engine.status() << engine.output();
  auto status = engine.status();
  EXPECT_NE(status.find("403"), std::string::npos) << status;
  EXPECT_EQ(received(sink, "/stolen"), 0u);
  EXPECT_EQ(engine.output().find("super-secret-value"), std::string::npos);
  EXPECT_EQ(engine.output().find("c3VwZXItc2VjcmV0LXZhbHVl"), std::string::npos);
  for (const auto& r : server->requests("GET", "/api/v1/namespaces/victim/secrets"))
    EXPECT_EQ(r.user, "system:serviceaccount:attacker:default") << r.target;
}

TEST(e2e_tenancy, a_git_trigger_source_cannot_read_local_paths) {
  test::kube::api_server server;
  test::http_sink sink;
  auto port = test::free_port();
  server.put(event_source("attacker", "hooks", port));
  // The attacks: a file:// URL at another tenant's clone, and a cloneDirectory out of the
  // namespace's clone root.
  auto thief = [&](const std::string& name, json git) {
    auto s = sensor("attacker", name, "hooks", sink.url("/t"));
    git["filePath"] = "workflow.yaml";
    s["spec"]["triggers"][0]["template"] = {
      {"name", "t"}, {"k8s", {{"operation", "create"}, {"source", {{"git", git}}}}}};
    server.put(s);
  };
  thief("by-url", {{"url", "file:///var/lib/ganglion/git/victim/repo"}});
  thief("by-directory",
        {{"url", "https://github.com/argoproj/argo-events.git"}, {"cloneDirectory", "../victim"}});
  e2e::engine_process engine{"", e2e::from_cluster(server, {"--all-namespaces"})};

  auto refusal = [&](const std::string& name) {
    auto refused = server.wait_for_object(
      "argoproj.io/v1alpha1", "Sensor", "attacker", name, [](const json& o) {
        for (const auto& c : o.value("status", json::object()).value("conditions", json::array()))
          if (c.value("type", "") == "TriggersProvided")
            return c.value("status", "") == "False";
        return false;
      });
    if (!refused)
      return std::string{"<not refused>"};
    for (const auto& c : (*refused)["status"]["conditions"])
      if (c.value("type", "") == "TriggersProvided")
        return c.value("message", "");
    return std::string{};
  };
  auto by_url = refusal("by-url");
  EXPECT_TRUE(by_url.starts_with("spec.triggers[0].template.k8s.source.git.url: file://"))
    << by_url << engine.output();
  auto by_directory = refusal("by-directory");
  EXPECT_TRUE(by_directory.starts_with("spec.triggers[0].template.k8s.source.git.cloneDirectory"))
    << by_directory;
  EXPECT_NE(by_directory.find(".."), std::string::npos) << by_directory;
}

TEST(e2e_tenancy, a_file_trigger_source_does_not_read_the_engines_filesystem) {
  auto server = rbac_server();
  test::http_sink sink;
  auto port = test::free_port();
  auto data = test::temp_dir() + "/data";
  // Another tenant's clone, where the engine keeps it.
  test::write_file(data + "/git/victim/clone/workflow.yaml",
                   "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: private\n");
  server->put(event_source("attacker", "hooks", port));
  auto thief = sensor("attacker", "by-file", "hooks", sink.url("/t"));
  thief["spec"]["triggers"][0]["template"] = {
    {"name", "t"},
    {"k8s",
     {{"operation", "create"},
      {"source", {{"file", {{"path", data + "/git/victim/clone/workflow.yaml"}}}}}}}};
  server->put(thief);
  auto path = test::temp_dir() + "/kubeconfig";
  test::write_file(path, server->kubeconfig("engine-token"));
  e2e::engine_options options;
  options.manifest_file = false;
  options.wait_ready = false;
  options.data_dir = data;
  options.extra_args = {"--from-cluster", "--all-namespaces", "--kubeconfig", path};
  e2e::engine_process engine{"", options};

  ASSERT_TRUE(test::eventually([&] {
    return phase_of(engine, "trigger", "attacker/by-file/t") == "Error";
  }))
    << engine.status() << engine.output();
  auto status = engine.status();
  EXPECT_NE(status.find("k8s.source.file: a file of the engine's filesystem"), std::string::npos)
    << status;
  EXPECT_NE(status.find("--object-identity impersonate"), std::string::npos) << status;
  ASSERT_EQ(e2e::post(port, "example", "{}").status, 200) << engine.output();
  // The firing reaches the refused trigger and is dropped, not executed.
  ASSERT_TRUE(
    metrics_show(engine, R"(ganglion_triggers_dropped_total{sensor="attacker/by-file"} 1)"))
    << engine.metrics();
  EXPECT_TRUE(server->list("v1", "ConfigMap", "attacker").empty())
    << "the other tenant's file became an object of the attacker's namespace";
}

TEST(e2e_tenancy, a_k8s_trigger_writes_only_where_its_own_account_may) {
  auto server = rbac_server();
  test::http_sink sink;
  auto port = test::free_port();
  server->put(event_source("attacker", "hooks", port));
  auto creates = [&](const std::string& name, const std::string& ns) {
    auto s = sensor("attacker", name, "hooks", sink.url("/t"));
    json object{{"apiVersion", "v1"},
                {"kind", "ConfigMap"},
                {"metadata", {{"name", name}, {"namespace", ns}}},
                {"data", {{"by", "attacker"}}}};
    s["spec"]["triggers"][0]["template"] = {
      {"name", "t"},
      {"k8s", {{"operation", "create"}, {"source", {{"resource", object}}}}}};
    server->put(s);
  };
  creates("plant", "victim"); // the attack: an object in the victim's namespace
  creates("own", "attacker"); // the same manifest, in its own namespace
  auto path = test::temp_dir() + "/kubeconfig";
  test::write_file(path, server->kubeconfig("engine-token"));
  e2e::engine_options options;
  options.manifest_file = false;
  options.extra_args = {"--from-cluster", "--all-namespaces", "--kubeconfig", path};
  e2e::engine_process engine{"", options};

  ASSERT_EQ(e2e::post(port, "example", "{}").status, 200) << engine.output();
  EXPECT_TRUE(server->wait_for_object("v1", "ConfigMap", "attacker", "own"))
    << engine.status() << engine.output();
  ASSERT_TRUE(test::eventually([&] {
    auto status = engine.status();
    return status.find("system:serviceaccount:attacker:default") != std::string::npos
           && status.find("403") != std::string::npos;
  }))
    << engine.status() << engine.output();
  EXPECT_FALSE(server->get("v1", "ConfigMap", "victim", "plant"));
  for (const auto& r : server->requests("POST", "/api/v1/namespaces/victim/configmaps"))
    EXPECT_EQ(r.user, "system:serviceaccount:attacker:default");
}
