// url.verifyCert against a real HTTPS server whose certificate no system CA signed (the test
// Kubernetes API server with its own CA): Argo's default (false) reads it, true refuses it; a
// redirect from https down to http is never followed.

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "artifact/artifact.hpp"
#include "loopback_servers.hpp"
#include "kube/api_server.hpp"

namespace ganglion::kubernetes::detail {
namespace {

using nlohmann::json;

const std::string at = "spec.triggers[0].template.k8s.source";

test::kube::server_options tls_options() {
  test::kube::server_options options;
  options.tls = true;
  return options;
}

struct url_tls_test : ::testing::Test {
  test::kube::api_server server{tls_options()};
  std::string object_url;

  void SetUp() override {
    server.put(json{{"apiVersion", "v1"},
                    {"kind", "ConfigMap"},
                    {"metadata", {{"name", "served"}, {"namespace", "default"}}},
                    {"data", {{"k", "v"}}}});
    object_url = server.url() + "/api/v1/namespaces/default/configmaps/served";
  }

  fetch_options options() const {
    fetch_options out;
    out.path = at;
    out.timeout = std::chrono::seconds(10);
    return out;
  }
};

TEST_F(url_tls_test, without_verify_cert_an_unknown_certificate_is_accepted) {
  artifact_location loc;
  loc.url = url_artifact{object_url, false};
  auto object = json::parse(fetch_artifact(loc, options()));
  EXPECT_EQ(object["metadata"]["name"], "served");
}

TEST_F(url_tls_test, with_verify_cert_an_unknown_certificate_is_refused) {
  artifact_location loc;
  loc.url = url_artifact{object_url, true};
  try {
    fetch_artifact(loc, options());
    FAIL() << "a certificate no trusted CA signed was accepted";
  } catch (const artifact_error& e) {
    EXPECT_EQ(std::string{e.what()}.rfind(at + ".url.path: GET " + object_url + " failed: ", 0), 0u)
      << e.what();
  }
}

TEST_F(url_tls_test, a_redirect_from_https_to_http_is_refused) {
  test::file_server plain;
  plain.put("/wf.yaml", {200, "kind: Workflow\n"});
  plain.put("/to-http", {302, "", plain.url("/wf.yaml")});
  test::tls_front front{static_cast<std::uint16_t>(
    std::stoi(plain.url("").substr(plain.url("").rfind(':') + 1)))};
  artifact_location loc;
  loc.url = url_artifact{front.base_url() + "/to-http", false, true};
  try {
    fetch_artifact(loc, options());
    FAIL() << "an https source followed a redirect to http";
  } catch (const artifact_error& e) {
    EXPECT_EQ(std::string{e.what()}, at + ".url.path: GET " + front.base_url()
                                       + "/to-http failed: a redirect from https to another "
                                         "scheme is refused")
      << e.what();
  }
  // Over plain http the same redirect is followed, as Go's client follows it.
  loc.url->path = plain.url("/to-http");
  EXPECT_EQ(json::parse(fetch_artifact(loc, options()))["kind"], "Workflow");
}

TEST_F(url_tls_test, a_urls_userinfo_never_appears_in_an_error) {
  artifact_location loc;
  loc.url = url_artifact{"https://user:hunter2@127.0.0.1:9/wf.yaml", false, true};
  try {
    fetch_artifact(loc, options());
    FAIL() << "port 9 answered";
  } catch (const artifact_error& e) {
    std::string message = e.what();
    EXPECT_EQ(message.find("hunter2"), std::string::npos) << message;
    EXPECT_NE(message.find("https://***@127.0.0.1:9/wf.yaml"), std::string::npos) << message;
  }
}

} // namespace
} // namespace ganglion::kubernetes::detail
