// One port for every webhook (issue 33): `ganglion run` with $PORT or --listen serves every
// webhook endpoint, /health and /ready on that one port, routed by path, and binds none of the
// ports the manifests name — as Knative's runtime contract asks of a container.

#include <csignal>

#include <gtest/gtest.h>

#include "child_process.hpp"
#include "files.hpp"
#include "http_request.hpp"
#include "http_sink.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

const std::string quickstart = std::string(GANGLION_SOURCE_DIR) + "/examples/quickstart";

/// `ganglion run` on the quick start (its webhook names port 12000) with $PORT = `port`.
test::child_process run_on_port(std::uint16_t port, std::vector<std::string> extra = {}) {
  std::vector<std::string> argv{GANGLION_BINARY, "run", "-f", quickstart, "--in-memory",
                                "--no-watch"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  return test::child_process{argv, {{"PORT", std::to_string(port)}}};
}

std::string at(std::uint16_t port, const std::string& path) {
  return "http://127.0.0.1:" + std::to_string(port) + path;
}

} // namespace

TEST(e2e_listen, port_serves_every_webhook_health_and_ready_and_binds_no_manifest_port) {
  // Two engines on the same manifest, whose webhook names port 12000: each serves it on its
  // own $PORT, so neither binds 12000 (the second would fail with the port in use).
  auto first_port = test::free_port();
  auto second_port = test::free_port();
  auto first = run_on_port(first_port);
  auto second = run_on_port(second_port);
  for (auto* process : {&first, &second}) {
    auto port = process == &first ? first_port : second_port;
    ASSERT_TRUE(test::wait_http_ok(at(port, "/ready"), 20s)) << process->output();
    auto health = test::http_request("GET", at(port, "/health"));
    EXPECT_EQ(health.status, 200);
    EXPECT_EQ(health.body, "OK");
    auto posted = test::http_request("POST", at(port, "/example"), R"({"message":"hello"})",
                                     {"Content-Type: application/json"});
    EXPECT_EQ(posted.status, 200) << posted.error;
    EXPECT_EQ(posted.body, "success");
    EXPECT_EQ(test::http_request("GET", at(port, "/nope")).status, 404);
  }
  for (auto* process : {&first, &second}) {
    process->signal(SIGTERM);
    ASSERT_EQ(process->wait(30s), 0) << process->output();
    auto log = process->output();
    EXPECT_NE(log.find("every webhook, /health and /ready on http://0.0.0.0:"), std::string::npos)
      << log;
    EXPECT_NE(log.find("log trigger webhook/log-message fired"), std::string::npos) << log;
    EXPECT_EQ(log.find(":12000"), std::string::npos) << log;
    EXPECT_NE(log.find("stopped"), std::string::npos) << log;
  }
}

TEST(e2e_listen, listen_wins_over_port_and_admin_may_not_share_it) {
  auto port = test::free_port();
  auto listen = test::free_port();
  auto process = run_on_port(port, {"--listen", "127.0.0.1:" + std::to_string(listen)});
  ASSERT_TRUE(test::wait_http_ok(at(listen, "/ready"), 20s)) << process.output();
  EXPECT_EQ(test::http_request("GET", at(port, "/ready")).status, 0) << "$PORT was bound";
  process.signal(SIGTERM);
  ASSERT_EQ(process.wait(30s), 0) << process.output();

  auto shared = run_on_port(port, {"--admin", "127.0.0.1:" + std::to_string(port)});
  ASSERT_EQ(shared.wait(30s), 1) << shared.output();
  EXPECT_NE(shared.output().find("share a port: give the admin endpoints a port of their own"),
            std::string::npos)
    << shared.output();
}

TEST(e2e_listen, a_port_that_is_not_one_is_a_usage_error) {
  test::child_process process{{GANGLION_BINARY, "run", "-f", quickstart, "--in-memory"},
                              {{"PORT", "http"}}};
  ASSERT_EQ(process.wait(30s), 2) << process.output();
  EXPECT_NE(process.output().find("got 'http': the port is not a number (from --listen, or $PORT"),
            std::string::npos)
    << process.output();
}

TEST(e2e_listen, validate_reports_an_endpoint_two_webhooks_serve_on_the_one_port) {
  auto dir = test::temp_dir();
  auto file = dir + "/hooks.yaml";
  test::write_file(file, R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata:
  name: hooks
spec:
  webhook:
    first: {port: "13001", endpoint: /push, method: POST}
    second: {port: "13002", endpoint: /push, method: POST}
)");
  test::child_process apart{{GANGLION_BINARY, "validate", "-f", file}};
  EXPECT_EQ(apart.wait(30s), 0) << apart.output();
  test::child_process together{{GANGLION_BINARY, "validate", "-f", file, "--listen", "8080"}};
  EXPECT_EQ(together.wait(30s), 1) << together.output();
  EXPECT_NE(together.output().find(file + ":8:29: spec.webhook.second.endpoint: endpoint /push "
                                           "on the --listen port is also used by event \"first\""),
            std::string::npos)
    << together.output();
}
