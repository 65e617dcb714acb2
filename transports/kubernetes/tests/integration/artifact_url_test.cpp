// The url source against a real HTTP server on 127.0.0.1: the object's bytes on 200, redirects
// followed, and each failure an error naming the field.

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "artifact/artifact.hpp"
#include "loopback_servers.hpp"

namespace ganglion::kubernetes::detail {
namespace {

using nlohmann::json;
using test::file_server;

const std::string at = "spec.triggers[0].template.argoWorkflow.source";
const std::string workflow = "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\n"
                             "metadata:\n  generateName: hello-world-\n";

artifact_location url_location(const std::string& url) {
  artifact_location loc;
  loc.url = url_artifact{url};
  return loc;
}

fetch_options options_at() {
  fetch_options options;
  options.path = at;
  options.timeout = std::chrono::seconds(10);
  return options;
}

std::string error_of(const artifact_location& location, const fetch_options& options) {
  try {
    fetch_artifact(location, options);
  } catch (const artifact_error& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(artifact_url, the_body_of_a_200_is_the_object) {
  file_server server;
  server.put("/wf.yaml", {200, workflow});
  auto object = json::parse(fetch_artifact(url_location(server.url("/wf.yaml")), options_at()));
  EXPECT_EQ(object["kind"], "Workflow");
  EXPECT_EQ(object["metadata"]["generateName"], "hello-world-");
}

TEST(artifact_url, a_redirect_is_followed) {
  file_server server;
  server.put("/old.yaml", {302, "", server.url("/wf.yaml")});
  server.put("/wf.yaml", {200, workflow});
  auto object = json::parse(fetch_artifact(url_location(server.url("/old.yaml")), options_at()));
  EXPECT_EQ(object["kind"], "Workflow");
}

TEST(artifact_url, a_404_is_an_error_at_url_path) {
  file_server server;
  auto message = error_of(url_location(server.url("/absent.yaml")), options_at());
  EXPECT_EQ(message, at + ".url.path: GET " + server.url("/absent.yaml")
                       + " answered HTTP 404 (200 is required)");
}

TEST(artifact_url, another_2xx_is_an_error_as_in_argo) {
  file_server server;
  server.put("/wf.yaml", {204, ""});
  auto message = error_of(url_location(server.url("/wf.yaml")), options_at());
  EXPECT_NE(message.find("answered HTTP 204"), std::string::npos) << message;
}

TEST(artifact_url, a_body_over_the_limit_is_refused) {
  file_server server;
  server.put("/big.yaml", {200, "kind: Pod\ndata: \"" + std::string(64 * 1024, 'x') + "\"\n"});
  auto options = options_at();
  options.max_bytes = 4096;
  auto message = error_of(url_location(server.url("/big.yaml")), options);
  EXPECT_EQ(message, at + ".url: the artifact is larger than the limit of 4096 bytes");
}

TEST(artifact_url, a_body_that_is_not_yaml_names_the_location) {
  file_server server;
  server.put("/bad.yaml", {200, "kind: Pod\n  metadata: [\n"});
  auto message = error_of(url_location(server.url("/bad.yaml")), options_at());
  EXPECT_EQ(message.rfind(at + ".url: not valid YAML or JSON", 0), 0u) << message;
}

TEST(artifact_url, a_server_slower_than_the_timeout_is_an_error) {
  file_server server;
  server.put("/slow.yaml", {200, workflow, {}, std::chrono::milliseconds(1500)});
  auto options = options_at();
  options.timeout = std::chrono::milliseconds(200);
  auto started = std::chrono::steady_clock::now();
  auto message = error_of(url_location(server.url("/slow.yaml")), options);
  EXPECT_LT(std::chrono::steady_clock::now() - started, std::chrono::milliseconds(1200));
  EXPECT_EQ(message.rfind(at + ".url.path: GET " + server.url("/slow.yaml") + " failed: ", 0), 0u)
    << message;
  EXPECT_NE(message.find("timed out"), std::string::npos) << message;
}

TEST(artifact_url, a_closed_port_is_an_error_at_url_path) {
  std::string url;
  {
    file_server server;
    url = server.url("/wf.yaml");
  }
  auto message = error_of(url_location(url), options_at());
  EXPECT_EQ(message.rfind(at + ".url.path: GET " + url + " failed: ", 0), 0u) << message;
}

} // namespace
} // namespace ganglion::kubernetes::detail
