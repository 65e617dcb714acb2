// url.verifyCert against a real HTTPS server whose certificate no system CA signed (the test
// Kubernetes API server with its own CA): Argo's default (false) reads it, true refuses it.

#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "artifact/artifact.hpp"
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

} // namespace
} // namespace ganglion::kubernetes::detail
