// api_client against the test API server: credentials (token, rotated token file, client
// certificate, CA data from a kubeconfig, insecure), 429 with Retry-After, a 403's message,
// timeouts, metrics and discovery.

#include <chrono>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "eventually.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/kubernetes/client.hpp"
#include "kube/api_server.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using kubernetes::api_client;
using kubernetes::api_request;
using kubernetes::client_options;
using kubernetes::cluster_config;
namespace kube = test::kube;

namespace {

constexpr const char* namespace_path = "/api/v1/namespaces/default";

cluster_config config_for(const kube::api_server& server, const std::string& token = {}) {
  cluster_config c;
  c.server = server.url();
  c.ca_pem = server.ca_pem();
  c.token = token;
  c.origin = "test";
  return c;
}

kube::server_options with_tokens(std::vector<std::string> tokens) {
  kube::server_options o;
  o.tls = true;
  o.tokens = std::move(tokens);
  return o;
}

std::string name_in(const std::string& body) {
  auto object = nlohmann::json::parse(body, nullptr, false);
  return object.is_object() ? object["metadata"].value("name", "") : "";
}

std::uint64_t counter(core::metrics_registry& metrics, const std::string& family,
                      const core::labels& series) {
  return metrics.get_counter(family, "", series).value();
}

} // namespace

TEST(kubernetes_client, bearer_token_over_tls) {
  kube::api_server server{with_tokens({"secret"})};
  api_client client{config_for(server, "secret")};
  auto response = client.call({.path = namespace_path});
  ASSERT_EQ(response.status, 200) << response.message();
  EXPECT_EQ(name_in(response.body), "default");
  api_client anonymous{config_for(server)};
  EXPECT_EQ(anonymous.call({.path = namespace_path}).status, 401);
}

TEST(kubernetes_client, a_rotated_token_file_is_read_again_after_a_401) {
  kube::api_server server{with_tokens({"rotated"})};
  auto file = test::temp_dir() + "/token";
  test::write_file(file, "expired\n");
  auto config = config_for(server);
  config.token_file = file;
  api_client client{config};
  test::write_file(file, "rotated\n");
  auto response = client.call({.path = namespace_path});
  EXPECT_EQ(response.status, 200) << response.message();
  auto seen = server.requests("GET", namespace_path);
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0].status, 401);
  EXPECT_EQ(seen[1].status, 200);
}

TEST(kubernetes_client, the_token_file_is_read_again_every_token_refresh) {
  kube::api_server server{with_tokens({"second"})};
  auto file = test::temp_dir() + "/token";
  test::write_file(file, "first");
  auto config = config_for(server);
  config.token_file = file;
  api_client client{config, client_options{.token_refresh = 1ms}};
  test::write_file(file, "second");
  std::this_thread::sleep_for(5ms); // kept: older than token_refresh, so the next call reads it
  EXPECT_EQ(client.call({.path = namespace_path}).status, 200);
  auto seen = server.requests("GET", namespace_path);
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_TRUE(seen[0].authenticated);
}

TEST(kubernetes_client, client_certificate) {
  kube::server_options options;
  options.tls = true;
  options.require_client_certificate = true;
  kube::api_server server{options};
  auto credentials = server.issue_client_certificate("alice");
  auto config = config_for(server);
  config.client_certificate_pem = credentials.certificate_pem;
  config.client_key_pem = credentials.key_pem;
  api_client client{config};
  auto response = client.call({.path = namespace_path});
  EXPECT_EQ(response.status, 200) << response.message();
  api_client without{config_for(server)};
  EXPECT_EQ(without.call({.path = namespace_path}).status, 401);
}

TEST(kubernetes_client, a_kubeconfig_with_ca_data_and_a_token) {
  kube::api_server server{with_tokens({"kc-token"})};
  auto path = test::temp_dir() + "/config";
  test::write_file(path, server.kubeconfig("kc-token", std::nullopt, "team-c"));
  auto config = kubernetes::read_kubeconfig(path);
  EXPECT_EQ(config.ca_pem, server.ca_pem());
  EXPECT_EQ(config.default_namespace, "team-c");
  api_client client{config};
  EXPECT_EQ(client.call({.path = namespace_path}).status, 200);
}

TEST(kubernetes_client, insecure_skip_tls_verify_and_its_absence) {
  kube::api_server server{with_tokens({"t"})};
  auto config = config_for(server, "t");
  config.ca_pem.clear();
  auto unverified = api_client{config}.call({.path = namespace_path});
  EXPECT_EQ(unverified.status, 0);
  EXPECT_FALSE(unverified.error.empty());
  config.insecure_skip_tls_verify = true;
  EXPECT_EQ(api_client{config}.call({.path = namespace_path}).status, 200);
}

TEST(kubernetes_client, a_429_is_retried_after_its_retry_after) {
  kube::api_server server;
  core::metrics_registry metrics;
  api_client client{config_for(server), client_options{.metrics = &metrics}};
  server.fail_next(1, 429, 1, namespace_path);
  auto started = std::chrono::steady_clock::now();
  auto response = client.call({.path = namespace_path});
  auto took = std::chrono::steady_clock::now() - started;
  EXPECT_EQ(response.status, 200) << response.message();
  EXPECT_GE(took, 900ms);
  EXPECT_EQ(server.requests("GET", namespace_path).size(), 2u);
  auto family = "ganglion_kubernetes_requests_total";
  EXPECT_EQ(counter(metrics, family, {{"verb", "GET"}, {"code", "429"}}), 1u);
  EXPECT_EQ(counter(metrics, family, {{"verb", "GET"}, {"code", "200"}}), 1u);
  EXPECT_NE(
    metrics.render().find("ganglion_kubernetes_request_duration_seconds_count{verb=\"GET\"} 2"),
    std::string::npos);
}

TEST(kubernetes_client, retry_after_is_capped_and_retries_are_counted) {
  kube::api_server server;
  api_client client{config_for(server), client_options{.max_retries = 2, .max_retry_after = 50ms}};
  server.fail_next(3, 429, 3600, namespace_path);
  auto started = std::chrono::steady_clock::now();
  auto response = client.call({.path = namespace_path});
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
  EXPECT_EQ(response.status, 429);
  EXPECT_EQ(server.requests("GET", namespace_path).size(), 3u);
  EXPECT_EQ(client.call({.path = namespace_path}).status, 200);
}

TEST(kubernetes_client, a_429_without_retry_after_waits_one_second) {
  kube::api_server server;
  api_client client{config_for(server)};
  server.fail_next(1, 429, 0, namespace_path);
  auto started = std::chrono::steady_clock::now();
  EXPECT_EQ(client.call({.path = namespace_path}).status, 200);
  EXPECT_GE(std::chrono::steady_clock::now() - started, 900ms);
}

TEST(kubernetes_client, a_403_carries_the_apis_message) {
  kube::api_server server;
  server.forbid("get", "namespaces");
  api_client client{config_for(server)};
  auto response = client.call({.path = namespace_path});
  EXPECT_EQ(response.status, 403);
  EXPECT_EQ(response.message().rfind("HTTP 403: ", 0), 0u) << response.message();
  EXPECT_NE(response.message().find("forbidden"), std::string::npos) << response.message();
}

TEST(kubernetes_client, writes_send_their_body_and_content_type) {
  kube::api_server server;
  api_client client{config_for(server)};
  auto created = client.call({.method = "POST",
                              .path = "/api/v1/namespaces/default/configmaps",
                              .body = R"({"apiVersion":"v1","kind":"ConfigMap",)"
                                      R"("metadata":{"name":"cm"},"data":{"a":"1"}})"});
  ASSERT_EQ(created.status, 201) << created.message();
  auto patched = client.call({.method = "PATCH",
                              .path = "/api/v1/namespaces/default/configmaps/cm",
                              .body = R"({"data":{"b":"2"}})",
                              .content_type = "application/merge-patch+json"});
  ASSERT_EQ(patched.status, 200) << patched.message();
  auto stored = server.get("v1", "ConfigMap", "default", "cm");
  ASSERT_TRUE(stored);
  EXPECT_EQ((*stored)["data"], (nlohmann::json{{"a", "1"}, {"b", "2"}}));
  EXPECT_EQ(
    client.call({.method = "DELETE", .path = "/api/v1/namespaces/default/configmaps/cm"}).status,
    200);
  EXPECT_FALSE(server.get("v1", "ConfigMap", "default", "cm"));
}

TEST(kubernetes_client, every_request_has_a_timeout) {
  kube::api_server server;
  api_client client{config_for(server), client_options{.request_timeout = 300ms}};
  // A watch stream never ends by itself: the request times out.
  auto response = client.call({.path = "/api/v1/namespaces/default/configmaps?watch=1"});
  EXPECT_EQ(response.status, 0);
  EXPECT_NE(response.error.find("imed out"), std::string::npos) << response.error;
}

TEST(kubernetes_client, more_requests_than_max_in_flight_fail_at_once) {
  kube::api_server server;
  api_client client{config_for(server), client_options{.max_in_flight = 0}};
  auto response = client.call({.path = namespace_path});
  EXPECT_EQ(response.status, 0);
  EXPECT_EQ(response.error, "too many requests to the Kubernetes API in flight (0)");
}
