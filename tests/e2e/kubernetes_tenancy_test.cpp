// Namespaces are boundaries in cluster mode (issue 31), driven through the binary against the
// test Kubernetes API server with two tenants, `victim` and `attacker`, each of whom may only
// create EventSources, Sensors and Secrets in their own namespace. Each attack that once
// worked is refused with a clear reason, and the same manifests keep working inside their own
// namespace: a Sensor never receives another namespace's events, and an EventSource created
// first under the victim's name neither displaces the victim's nor feeds the victim's Sensor.

#include <filesystem>
#include <thread>

#include <nlohmann/json.hpp>

#include "engine_process.hpp"
#include "eventually.hpp"
#include "files.hpp"
#include "http_sink.hpp"
#include "kube/api_server.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

/// `--from-cluster --all-namespaces` with a kubeconfig for `server`.
e2e::engine_options every_namespace(const test::kube::api_server& server) {
  auto path = test::temp_dir() + "/kubeconfig";
  test::write_file(path, server.kubeconfig());
  e2e::engine_options options;
  options.manifest_file = false;
  options.extra_args = {"--from-cluster", "--all-namespaces", "--kubeconfig", path};
  return options;
}

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
  json trigger{
    {"template",
     {{"name", "t"},
      {"http",
       {{"url", url},
        {"method", "POST"},
        {"payload", json::array({{{"src", {{"dependencyName", "d"}, {"dataKey", "body"}}},
                                  {"dest", "body"}}})}}}}}};
  return {{"apiVersion", "argoproj.io/v1alpha1"},
          {"kind", "Sensor"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"spec",
           {{"dependencies",
             json::array({{{"name", "d"}, {"eventSourceName", source}, {"eventName", "example"}}})},
            {"triggers", json::array({trigger})}}}};
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

} // namespace

TEST(e2e_tenancy, a_sensor_never_receives_another_namespaces_events) {
  test::kube::api_server server;
  test::http_sink sink;
  auto port = test::free_port();
  server.put(event_source("victim", "payments", port));
  server.put(sensor("victim", "audit", "payments", sink.url("/victim")));
  // The attacker names the victim's EventSource from their own namespace.
  server.put(sensor("attacker", "spy", "payments", sink.url("/attacker")));
  auto options = every_namespace(server);
  auto data = options.data_dir = test::temp_dir() + "/data";
  e2e::engine_process engine{"", options};

  ASSERT_EQ(e2e::post(port, "example", R"({"card":"4111"})").status, 200) << engine.output();
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  ASSERT_EQ(e2e::post(port, "example", R"({"card":"5500"})").status, 200) << engine.output();
  ASSERT_TRUE(sink.wait_for(2, 10s)) << engine.output();
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(received(sink, "/victim"), 2u);
  EXPECT_EQ(received(sink, "/attacker"), 0u) << "the attacker's Sensor got the victim's events";

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
  e2e::engine_process engine{"", every_namespace(server)};
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
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(received(sink, "/attacker"), 1u);
  ASSERT_EQ(received(sink, "/victim"), 1u);
  for (const auto& r : sink.requests())
    if (r.target == "/victim")
      EXPECT_EQ(json::parse(r.body)["body"], R"({"real":true})")
        << "Argo's dataKey of an object gives its JSON text";
}
