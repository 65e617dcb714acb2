// Cluster mode's Secrets, per namespace as in Argo: with two namespaces served (by name or
// with --all-namespaces) and a Secret of the same name in each, each Sensor's trigger sends
// its own namespace's value, a changed Secret is used by the trigger's next start, and a
// Secret that exists only in another namespace is a clear error naming namespace, Secret and
// key in /v1/status, never the other namespace's value.

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

json secret(const std::string& ns, const std::string& name, const std::string& value) {
  return {{"apiVersion", "v1"},
          {"kind", "Secret"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"data", {{"value", test::kube::base64_encode(value + "\n")}}}};
}

/// EventSource `hooks-<ns>`: a webhook event `example` on `port`.
json event_source(const std::string& ns, std::uint16_t port) {
  return {{"apiVersion", "argoproj.io/v1alpha1"},
          {"kind", "EventSource"},
          {"metadata", {{"name", "hooks-" + ns}, {"namespace", ns}}},
          {"spec",
           {{"webhook",
             {{"example",
               {{"port", std::to_string(port)}, {"endpoint", "/example"}, {"method", "POST"}}}}}}}};
}

/// Sensor `name` of `ns` on hooks-<ns>/example whose HTTP trigger `t` posts to `url` with
/// header X-Token from Secret `secret_name` key `value`.
json sensor(const std::string& ns, const std::string& name, const std::string& url,
            const std::string& secret_name) {
  json header{{"name", "X-Token"},
              {"valueFrom", {{"secretKeyRef", {{"name", secret_name}, {"key", "value"}}}}}};
  json trigger{{"template",
                {{"name", "t"},
                 {"http",
                  {{"url", url},
                   {"method", "POST"},
                   {"secureHeaders", json::array({header})}}}}}};
  return {{"apiVersion", "argoproj.io/v1alpha1"},
          {"kind", "Sensor"},
          {"metadata", {{"name", name}, {"namespace", ns}}},
          {"spec",
           {{"dependencies", json::array({{{"name", "d"},
                                           {"eventSourceName", "hooks-" + ns},
                                           {"eventName", "example"}}})},
            {"triggers", json::array({trigger})}}}};
}

/// The X-Token of the first request `sink` received on `target` after `skip` of them.
std::string token_of(const test::http_sink& sink, const std::string& target, std::size_t skip) {
  std::size_t seen = 0;
  for (const auto& r : sink.requests())
    if (r.target == target && seen++ == skip)
      return r.header("X-Token");
  return "<none>";
}

/// Two namespaces, a Secret `token` in each, run with `args`: each trigger sends its own.
void each_object_reads_its_own_namespace(std::vector<std::string> args) {
  test::kube::api_server server;
  test::http_sink sink;
  auto port_a = test::free_port();
  auto port_b = test::free_port();
  server.put(secret("team-a", "token", "of-a"));
  server.put(secret("team-b", "token", "of-b"));
  server.put(secret("team-a", "only-in-a", "of-a-only"));
  server.put(event_source("team-a", port_a));
  server.put(event_source("team-b", port_b));
  server.put(sensor("team-a", "s-a", sink.url("/a"), "token"));
  server.put(sensor("team-b", "s-b", sink.url("/b"), "token"));
  // Secret only-in-a exists in team-a only: a Sensor of team-b never gets its value.
  server.put(sensor("team-b", "s-c", sink.url("/c"), "only-in-a"));
  e2e::engine_process engine{"", e2e::from_cluster(server, std::move(args))};

  ASSERT_EQ(e2e::post(port_a, "example", "{}").status, 200) << engine.output();
  ASSERT_EQ(e2e::post(port_b, "example", "{}").status, 200) << engine.output();
  ASSERT_TRUE(test::eventually([&] {
    return token_of(sink, "/a", 0) != "<none>" && token_of(sink, "/b", 0) != "<none>";
  }))
    << engine.output();
  EXPECT_EQ(token_of(sink, "/a", 0), "of-a");
  EXPECT_EQ(token_of(sink, "/b", 0), "of-b");
  for (const auto& r : sink.requests())
    EXPECT_NE(r.target, "/c") << "s-c ran with another namespace's Secret";

  ASSERT_TRUE(test::eventually([&] {
    auto status = engine.status();
    return status.find("only-in-a/value (namespace team-b)") != std::string::npos;
  }))
    << engine.status() << engine.output();
  auto status = json::parse(engine.status());
  bool shown = false;
  for (const auto& c : status["components"])
    if (c.value("kind", "") == "trigger" && c.value("name", "") == "team-b/s-c/t") {
      shown = true;
      EXPECT_EQ(c.value("phase", ""), "Error");
      auto why = c.value("lastError", "");
      EXPECT_NE(why.find("Secret \"only-in-a\" not found in namespace team-b"), std::string::npos)
        << why;
      EXPECT_EQ(why.find("of-a-only"), std::string::npos) << why;
    }
  EXPECT_TRUE(shown) << status.dump(2);
  EXPECT_EQ(engine.output().find("of-a-only"), std::string::npos);

  // A changed Secret is used by the trigger's next start (here: its Sensor changed).
  server.put(secret("team-b", "token", "of-b-2"));
  auto reloads = engine.reloads();
  server.update("argoproj.io/v1alpha1", "Sensor", "team-b", "s-b", [](json& o) {
    o["spec"]["triggers"][0]["template"]["http"]["timeout"] = 7;
  });
  ASSERT_TRUE(engine.wait_reloads(reloads + 1)) << engine.output();
  ASSERT_TRUE(test::eventually([&] {
    auto before = sink.requests().size();
    if (e2e::post(port_b, "example", "{}").status != 200 || !sink.wait_for(before + 1, 2s))
      return false;
    return sink.requests().back().header("X-Token") == "of-b-2";
  }))
    << engine.output();
  // team-a's Secret of the same name is untouched.
  auto before = sink.requests().size();
  ASSERT_EQ(e2e::post(port_a, "example", "{}").status, 200);
  ASSERT_TRUE(sink.wait_for(before + 1, 10s)) << engine.output();
  EXPECT_EQ(sink.requests().back().header("X-Token"), "of-a");
}

} // namespace

TEST(e2e_kubernetes_secrets, named_namespaces_each_read_their_own_secrets) {
  each_object_reads_its_own_namespace({"--namespace", "team-a", "--namespace", "team-b"});
}

TEST(e2e_kubernetes_secrets, all_namespaces_each_read_their_own_secrets) {
  each_object_reads_its_own_namespace({"--all-namespaces"});
}
