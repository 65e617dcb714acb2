// What the client computes without a server: paths, messages, the configurations it refuses at
// construction, and how long a Retry-After asks to wait.

#include <gtest/gtest.h>

#include "ganglion/kubernetes/client.hpp"
#include "client/retry_after.hpp"
#include "test_pem.hpp"
#include "test_support.hpp"

using namespace ganglion;
using kubernetes::api_client;
using kubernetes::api_response;
using kubernetes::cluster_config;
using kubernetes::config_error;
using kubernetes::resource_info;

TEST(kubernetes_client, path_of_core_group_namespaced_and_cluster_scoped) {
  resource_info pods{"", "v1", "Pod", "pods", true};
  resource_info nodes{"", "v1", "Node", "nodes", false};
  resource_info workflows{"argoproj.io", "v1alpha1", "Workflow", "workflows", true};
  EXPECT_EQ(api_client::path_of(pods, "default"), "/api/v1/namespaces/default/pods");
  EXPECT_EQ(api_client::path_of(pods, "default", "web-1"), "/api/v1/namespaces/default/pods/web-1");
  EXPECT_EQ(api_client::path_of(pods, ""), "/api/v1/pods");
  EXPECT_EQ(api_client::path_of(nodes, "default", "n1"), "/api/v1/nodes/n1");
  EXPECT_EQ(api_client::path_of(workflows, "argo", "wf"),
            "/apis/argoproj.io/v1alpha1/namespaces/argo/workflows/wf");
  EXPECT_EQ(pods.api_version(), "v1");
  EXPECT_EQ(workflows.api_version(), "argoproj.io/v1alpha1");
}

TEST(kubernetes_client, message_is_the_status_message_else_the_body_else_the_error) {
  api_response forbidden{403,
                         R"({"kind":"Status","apiVersion":"v1","status":"Failure",)"
                         R"("message":"pods is forbidden: no","reason":"Forbidden","code":403})"};
  EXPECT_EQ(forbidden.message(), "HTTP 403: pods is forbidden: no");
  EXPECT_EQ((api_response{502, "<html>\nbad gateway\n</html>\n"}.message()),
            "HTTP 502: <html> bad gateway </html>");
  EXPECT_EQ((api_response{500, ""}.message()), "HTTP 500");
  EXPECT_EQ((api_response{0, "", "Connection refused"}.message()), "Connection refused");
  auto long_body = std::string(300, 'x');
  EXPECT_EQ((api_response{500, long_body}.message()), "HTTP 500: " + std::string(200, 'x') + "…");
  EXPECT_TRUE((api_response{201, ""}.ok()));
  EXPECT_FALSE((api_response{404, ""}.ok()));
}

namespace {

std::string construction_error(cluster_config config) {
  try {
    api_client client{std::move(config)};
  } catch (const config_error& e) {
    return e.what();
  }
  return {};
}

} // namespace

TEST(kubernetes_client, refuses_a_configuration_it_cannot_use) {
  cluster_config c;
  c.server = "https://127.0.0.1:1";
  c.origin = "kubeconfig /k (context x)";
  EXPECT_EQ(construction_error(c), "");
  auto bad = c;
  bad.server = "127.0.0.1:6443";
  EXPECT_EQ(construction_error(bad),
            "kubeconfig /k (context x): server: not an http:// or https:// URL: '127.0.0.1:6443'");
  bad = c;
  bad.ca_pem = "nonsense";
  EXPECT_EQ(construction_error(bad),
            "kubeconfig /k (context x): certificate authority: not a PEM certificate");
  bad = c;
  bad.client_certificate_pem = kubernetes::testing::certificate_pem;
  bad.client_key_pem = kubernetes::testing::certificate_pem;
  EXPECT_EQ(construction_error(bad), "kubeconfig /k (context x): client key: not a PEM private "
                                     "key (or one encrypted with a passphrase)");
  bad = c;
  bad.token_file = test::temp_dir() + "/absent";
  EXPECT_EQ(construction_error(bad), "kubeconfig /k (context x): token file: cannot read "
                                       + bad.token_file + ": No such file or directory");
}

TEST(kubernetes_client, a_request_to_no_server_completes_with_the_transport_error) {
  cluster_config c;
  c.server = "http://127.0.0.1:1";
  api_client client{c};
  auto response = client.call({.path = "/api/v1/namespaces"});
  EXPECT_EQ(response.status, 0);
  EXPECT_FALSE(response.error.empty());
  EXPECT_EQ(response.message(), response.error);
}

TEST(kubernetes_client, retry_after_is_read_as_seconds_or_as_an_http_date) {
  using kubernetes::detail::parse_retry_after;
  using namespace std::chrono;
  // Sun, 06 Nov 1994 08:49:37 GMT, RFC 9110's example date.
  auto now = system_clock::from_time_t(784111777);
  EXPECT_EQ(parse_retry_after("3", now), milliseconds{3000});
  EXPECT_EQ(parse_retry_after("0", now), milliseconds{0});
  EXPECT_EQ(parse_retry_after("Sun, 06 Nov 1994 08:49:42 GMT", now), milliseconds{5000});
  EXPECT_EQ(parse_retry_after("Sunday, 06-Nov-94 08:50:37 GMT", now), milliseconds{60000});
  EXPECT_EQ(parse_retry_after("Sun Nov  6 08:49:47 1994", now), milliseconds{10000});
  // A date already past asks for no wait; a day is the most any value asks for.
  EXPECT_EQ(parse_retry_after("Sun, 06 Nov 1994 08:00:00 GMT", now), milliseconds{0});
  EXPECT_EQ(parse_retry_after("999999", now), milliseconds{24L * 3600 * 1000});
  EXPECT_EQ(parse_retry_after("-1", now), std::nullopt);
  EXPECT_EQ(parse_retry_after("soon", now), std::nullopt);
  EXPECT_EQ(parse_retry_after("", now), std::nullopt);
}
