// What `run` will not run is said before anything starts: `validate` warns (errors with
// --strict) with the location and a summary, `run` refuses exactly those objects at once (no
// restarts) and keeps /ready at 503 while a source cannot run, and `ganglion test` fails when
// a trigger it would fire cannot run.

#include <filesystem>
#include <tuple>
#include <vector>

#include "engine_process.hpp"
#include "eventually.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// A sensor on hooks/example whose first trigger is of a kind ganglion does not run and whose second logs.
std::string unrun_sensor() {
  return e2e::hook_sensor(e2e::unrun_trigger("workflow")
                         + "    - template:\n        name: audit\n        log: {}\n");
}

/// An EventSource of a kind ganglion does not run yet.
std::string unrun_source() {
  return R"(---
apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: gh
spec:
  mns:
    push:
      queue: q
      endpoint: http://127.0.0.1:1
)";
}

struct validated {
  int code = -1;
  std::string output;
};

validated validate(const std::vector<std::string>& args) {
  std::vector<std::string> argv{GANGLION_BINARY, "validate"};
  argv.insert(argv.end(), args.begin(), args.end());
  test::child_process p{argv};
  auto code = p.wait(20s);
  return {code ? *code : -1, p.output()};
}

/// The component of /v1/status named `name`, as its JSON text.
std::string status_of(e2e::engine_process& engine, const std::string& name) {
  auto status = test::http_request("GET", engine.admin_url("/v1/status")).body;
  auto at = status.find("\"name\": \"" + name + "\"");
  if (at == std::string::npos)
    return {};
  auto begin = status.rfind('{', at);
  return status.substr(begin, status.find('}', at) - begin + 1);
}

} // namespace

TEST(e2e_runnability, validate_warns_with_the_location_of_each_kind_run_will_not_run) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/m.yaml",
                   e2e::webhook_source("hooks", 12000, {"example"}) + unrun_sensor() + unrun_source());
  auto plain = validate({"-f", dir + "/m.yaml"});
  EXPECT_EQ(plain.code, 0) << plain.output;
  EXPECT_NE(plain.output.find(dir + "/m.yaml:24:9: warning: spec.triggers[0].template.pulsar: not run "
                              "by ganglion yet — see docs/compatibility.md"),
            std::string::npos)
    << plain.output;
  EXPECT_NE(plain.output.find("warning: spec.mns.push: not run by ganglion yet"),
            std::string::npos)
    << plain.output;
  EXPECT_NE(plain.output.find("1 trigger and 1 source will not run (see docs/compatibility.md)"),
            std::string::npos)
    << plain.output;

  auto strict = validate({"-f", dir + "/m.yaml", "--strict"});
  EXPECT_EQ(strict.code, 1) << strict.output;
  EXPECT_NE(strict.output.find(": spec.triggers[0].template.pulsar: not run by ganglion yet"),
            std::string::npos)
    << strict.output;
}

TEST(e2e_runnability, run_says_what_it_will_not_run_and_is_not_ready_while_a_source_cannot) {
  auto port = test::free_port();
  e2e::engine_process engine{e2e::webhook_source("hooks", port, {"example"}) + unrun_sensor()
                               + unrun_source(),
                             {}, false};
  ASSERT_TRUE(test::eventually([&] {
    return engine.output().find("1 trigger and 1 source will not run") != std::string::npos;
  })) << engine.output();
  // /ready stays 503 here, so each part the test posts through must be seen Running: an event
  // posted before sensor s runs would reach no sensor.
  for (const char* name : {"hooks/example", "s", "s/audit"})
    ASSERT_TRUE(test::eventually([&] {
      return status_of(engine, name).find("Running") != std::string::npos;
    })) << name << "\n" << engine.output();
  auto ready = test::http_request("GET", engine.admin_url("/ready"));
  EXPECT_EQ(ready.status, 503);
  EXPECT_NE(ready.body.find("source gh/push: Error: "), std::string::npos) << ready.body;
  EXPECT_NE(ready.body.find("spec.mns.push: not run by ganglion yet"), std::string::npos)
    << ready.body;
  // The rest runs: the webhook takes events and the log trigger fires.
  EXPECT_EQ(e2e::post(port, "example", R"({"k":1})").status, 200);
  EXPECT_TRUE(test::eventually([&] {
    return engine.output().find("s/audit") != std::string::npos;
  })) << engine.output();
  auto trigger = status_of(engine, "s/workflow");
  EXPECT_NE(trigger.find("\"phase\": \"Error\""), std::string::npos) << trigger;
  EXPECT_NE(trigger.find("\"restarts\": 0"), std::string::npos) << trigger;
}

TEST(e2e_runnability, ganglion_test_fails_when_a_trigger_it_would_fire_cannot_run) {
  auto dir = test::temp_dir();
  test::write_file(dir + "/m.yaml", e2e::webhook_source("hooks", 12000, {"example"}) + unrun_sensor());
  test::write_file(dir + "/e.json",
                   R"({"source":"hooks","subject":"example","data":{"header":{},"body":{}}})");
  test::child_process p{{GANGLION_BINARY, "test", "-f", dir + "/m.yaml", "--event", dir + "/e.json"}};
  EXPECT_EQ(p.wait(20s), 3) << p.output();
  EXPECT_NE(p.output().find("trigger workflow would fire, but cannot run: pulsar triggers are not "
                            "run by ganglion yet"),
            std::string::npos)
    << p.output();
  EXPECT_NE(p.output().find("trigger audit fires"), std::string::npos) << p.output();
}

TEST(e2e_runnability, two_event_sources_on_one_port_and_path_are_a_located_clash) {
  auto dir = test::temp_dir();
  auto port = test::free_port();
  test::write_file(dir + "/a.yaml", e2e::webhook_source("first", port, {"example"}));
  test::write_file(dir + "/b.yaml", e2e::webhook_source("second", port, {"example"}));
  auto v = validate({"-f", dir});
  EXPECT_EQ(v.code, 0) << v.output;
  EXPECT_NE(v.output.find(dir + "/b.yaml:"), std::string::npos) << v.output;
  EXPECT_NE(v.output.find(fmt::format("endpoint /example on port {} is already served by first/example "
                                       "({}/a.yaml:",
                                       port, dir)),
            std::string::npos)
    << v.output;

  // run: the second is refused at once, the first serves.
  test::child_process run{{GANGLION_BINARY, "run", "-f", dir, "--in-memory", "--webhook-host",
                           "127.0.0.1", "--no-watch"}};
  ASSERT_TRUE(test::eventually([&] {
    return run.output().find("source second/example will not run") != std::string::npos;
  })) << run.output();
  EXPECT_TRUE(test::eventually([&] { return e2e::post(port, "example", "{}").status == 200; }))
    << run.output();
  run.signal(SIGTERM);
  EXPECT_EQ(run.wait(15s), 0);
  // The whole run's log, now that it is over.
  EXPECT_EQ(run.output().find("is already served on port"), std::string::npos)
    << "the clash reached the listener: " << run.output();
}

TEST(e2e_runnability, a_secret_without_secrets_dir_is_reported_and_refused_and_runs_with_one) {
  auto port = test::free_port();
  auto manifests = e2e::webhook_source("hooks", port, {"example"},
                                       "      authSecret: {name: webhook-auth, key: token}\n");
  auto dir = test::temp_dir();
  test::write_file(dir + "/m.yaml", manifests);
  auto v = validate({"-f", dir + "/m.yaml"});
  EXPECT_NE(v.output.find(dir + "/m.yaml:11:7: warning: spec.webhook.example.authSecret: secret "
                          "webhook-auth/token is referenced, but no --secrets-dir is given"),
            std::string::npos)
    << v.output;
  auto secrets = test::temp_dir();
  auto with_dir = validate({"-f", dir + "/m.yaml", "--secrets-dir", secrets, "--strict"});
  EXPECT_EQ(with_dir.code, 1) << with_dir.output;
  EXPECT_NE(with_dir.output.find(secrets + "/webhook-auth/token does not exist"), std::string::npos)
    << with_dir.output;
  std::filesystem::create_directories(secrets + "/webhook-auth");
  test::write_file(secrets + "/webhook-auth/token", "s3cret\n");
  EXPECT_EQ(validate({"-f", dir + "/m.yaml", "--secrets-dir", secrets, "--strict"}).code, 0);

  {
    e2e::engine_process refused{manifests, {}, false};
    ASSERT_TRUE(test::eventually([&] {
      return status_of(refused, "hooks/example").find("Error") != std::string::npos;
    })) << refused.output();
    EXPECT_NE(status_of(refused, "hooks/example").find("\"restarts\": 0"), std::string::npos);
  }
  e2e::engine_process runs{manifests, secrets};
  auto r = test::http_request("POST", fmt::format("http://127.0.0.1:{}/example", port), "{}",
                              {"Authorization: Bearer s3cret"});
  EXPECT_EQ(r.status, 200) << runs.output();
}

TEST(e2e_runnability, kinds_no_debian_package_serves_say_why_and_what_to_use_instead) {
  const std::string corpus =
    GANGLION_SOURCE_DIR "/tests/conformance/argo-events/examples/event-sources/";
  for (const auto& [file, system, type] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
         {"nsq.yaml", "NSQ", "nsq"}, {"pulsar.yaml", "Apache Pulsar", "pulsar"},
         {"hdfs.yaml", "HDFS", "hdfs"}, {"emitter.yaml", "Emitter", "emitter"}}) {
    auto r = validate({"-f", corpus + file});
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find(": warning: spec." + type + "."), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("not run by ganglion: no " + system + " client library or server is "
                            "packaged for Debian 12, so ganglion has no tested " + type +
                            " source; bridge it through a generic event source (your own gRPC "
                            "service, docs/signals.md)"),
              std::string::npos)
      << r.output;
  }
}

TEST(e2e_runnability, azure_event_hubs_and_service_bus_sources_say_why_and_what_to_use_instead) {
  const std::string corpus = GANGLION_SOURCE_DIR
    "/tests/conformance/argo-events/examples/event-sources/";
  auto secrets = test::temp_dir();
  for (const auto& [name, key] : std::vector<std::pair<std::string, std::string>>{
         {"secret_containing_shared_access_key_name",
          "key_within_the_secret_which_holds_the_value_of_shared_access_key_name"},
         {"secret_containing_shared_access_key",
          "key_within_the_secret_which_holds_the_value_of_shared_access_key"},
         {"azure-secret", "connectionstring"}})
    test::write_file(secrets + "/" + name + "/" + key, "x");
  for (const auto& [file, type, why] :
       std::vector<std::tuple<std::string, std::string, std::string>>{
         {"azure-events-hub.yaml", "azureEventsHub",
          "not run by ganglion: Argo reads Event Hubs over AMQP 1.0"},
         {"azure-service-bus.yaml", "azureServiceBus",
          "not run by ganglion: Argo reads Service Bus over AMQP 1.0"}}) {
    auto r = validate({"-f", corpus + file, "--secrets-dir", secrets});
    EXPECT_EQ(r.code, 0) << r.output;
    EXPECT_NE(r.output.find(": warning: spec." + type + ".example: " + why), std::string::npos)
      << r.output;
    EXPECT_NE(r.output.find("generic event source"), std::string::npos) << r.output;
  }
}
