// The s3 source against the test S3 endpoint (tests/support/s3, which verifies every SigV4
// signature): the object fetched, S3's refusals turned into errors at the field they concern,
// the size limit, http only when `insecure`; and a k8s trigger creating the object it read.

#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "artifact/artifact.hpp"
#include "ganglion/core/secrets.hpp"
#include "s3/s3_server.hpp"
#include "trigger_fixture.hpp"

namespace ganglion::kubernetes::detail {
namespace {

using nlohmann::json;
using test::s3::s3_server;

const std::string at = "spec.triggers[0].template.k8s.source";
const std::string workflow = "apiVersion: argoproj.io/v1alpha1\nkind: Workflow\n"
                             "metadata:\n  generateName: hello-world-\n";

/// Secrets `minio/accesskey` and `minio/secretkey` with the given values.
std::shared_ptr<core::secret_store> keys(const std::string& access, const std::string& secret) {
  std::map<std::string, std::string> values{{"accesskey", access}, {"secretkey", secret}};
  return std::make_shared<core::secret_store>(
    [values](const std::string&, const std::string& name, const std::string& key,
             std::string* error) -> std::optional<std::string> {
      auto found = values.find(key);
      if (name == "minio" && found != values.end())
        return found->second;
      if (error)
        *error = "no secret " + name + "/" + key;
      return std::nullopt;
    });
}

struct artifact_s3 : ::testing::Test {
  s3_server server;
  std::shared_ptr<core::secret_store> secrets =
    keys(server.options().access_key, server.options().secret_key);

  void SetUp() override { server.put_object("workflows", "hello-world.yaml", workflow); }

  artifact_location location(const std::string& bucket = "workflows",
                             const std::string& key = "hello-world.yaml") const {
    s3_artifact s3;
    s3.endpoint = server.endpoint();
    s3.bucket = s3_bucket{bucket, key};
    s3.insecure = true;
    s3.access_key = dsl::secret_key_selector{"minio", "accesskey"};
    s3.secret_key = dsl::secret_key_selector{"minio", "secretkey"};
    artifact_location loc;
    loc.s3 = s3;
    return loc;
  }

  fetch_options options() const {
    fetch_options out;
    out.path = at;
    out.secrets = secrets.get();
    out.timeout = std::chrono::seconds(10);
    return out;
  }

  std::string error_of(const artifact_location& loc, const fetch_options& opts) const {
    try {
      fetch_artifact(loc, opts);
    } catch (const artifact_error& e) {
      return e.what();
    }
    return "(no error)";
  }
};

TEST_F(artifact_s3, a_signed_get_object_reads_the_object) {
  auto object = json::parse(fetch_artifact(location(), options()));
  EXPECT_EQ(object["kind"], "Workflow");
  auto log = server.requests();
  ASSERT_EQ(log.size(), 1u);
  EXPECT_EQ(log[0].method, "GET");
  EXPECT_EQ(log[0].target, "/workflows/hello-world.yaml") << "path style";
  EXPECT_EQ(log[0].error_code, "");
}

TEST_F(artifact_s3, dot_segments_of_a_key_never_leave_the_bucket) {
  server.put_object("other-bucket", "x", "kind: Secret\nmetadata: {name: other-tenants}\n");
  auto message = error_of(location("workflows", "../other-bucket/x"), options());
  EXPECT_EQ(message.rfind(at + ".s3.bucket.key: GetObject workflows/../other-bucket/x at "
                                + server.endpoint() + " answered HTTP 404 NoSuchKey",
                          0),
            0u)
    << message;
  EXPECT_EQ(server.requests().back().target, "/workflows/%2E%2E/other-bucket/x")
    << "the path is sent as signed, its dots encoded";
  // A key that is literally `./wf.yaml` or holds `..` inside a name is the object of that name.
  server.put_object("workflows", "a/../b.yaml", workflow);
  EXPECT_EQ(json::parse(fetch_artifact(location("workflows", "a/../b.yaml"), options()))["kind"],
            "Workflow");
  server.put_object("workflows", "v1..2.yaml", workflow);
  EXPECT_EQ(json::parse(fetch_artifact(location("workflows", "v1..2.yaml"), options()))["kind"],
            "Workflow");
  EXPECT_EQ(server.requests().back().target, "/workflows/v1..2.yaml");
}

TEST_F(artifact_s3, a_key_with_spaces_and_symbols_is_encoded_as_it_is_signed) {
  server.put_object("workflows", "team a/wf+1 (ü).yaml", workflow);
  auto object =
    json::parse(fetch_artifact(location("workflows", "team a/wf+1 (ü).yaml"), options()));
  EXPECT_EQ(object["kind"], "Workflow");
  EXPECT_EQ(server.requests().back().target, "/workflows/team%20a/wf%2B1%20%28%C3%BC%29.yaml");
}

TEST_F(artifact_s3, keys_are_trimmed_as_argo_trims_them) {
  secrets = keys(" " + server.options().access_key + "\n", server.options().secret_key + "  ");
  EXPECT_EQ(json::parse(fetch_artifact(location(), options()))["kind"], "Workflow");
}

TEST_F(artifact_s3, a_wrong_secret_key_is_s3s_signature_refusal_at_secret_key) {
  secrets = keys(server.options().access_key, "not-the-secret");
  EXPECT_EQ(error_of(location(), options()),
            at + ".s3.secretKey: GetObject workflows/hello-world.yaml at " + server.endpoint()
              + " answered HTTP 403 SignatureDoesNotMatch: The request signature we calculated "
                "does not match the signature you provided. Check your key and signing method.");
}

TEST_F(artifact_s3, an_unknown_access_key_is_an_error_at_access_key) {
  secrets = keys("AKIAUNKNOWN", server.options().secret_key);
  auto message = error_of(location(), options());
  EXPECT_EQ(message.rfind(at + ".s3.accessKey: GetObject workflows/hello-world.yaml at "
                            + server.endpoint() + " answered HTTP 403 InvalidAccessKeyId: ",
                          0),
            0u)
    << message;
}

TEST_F(artifact_s3, a_missing_key_or_bucket_is_s3s_404_at_its_field) {
  EXPECT_EQ(error_of(location("workflows", "absent.yaml"), options()),
            at + ".s3.bucket.key: GetObject workflows/absent.yaml at " + server.endpoint()
              + " answered HTTP 404 NoSuchKey: The specified key does not exist.");
  auto message = error_of(location("nobucket", "hello-world.yaml"), options());
  EXPECT_EQ(message.rfind(at + ".s3.bucket.name: GetObject nobucket/hello-world.yaml at ", 0), 0u)
    << message;
  EXPECT_NE(message.find("HTTP 404 NoSuchBucket"), std::string::npos) << message;
}

TEST_F(artifact_s3, another_region_than_the_servers_is_an_error_at_region) {
  auto loc = location();
  loc.s3->region = "eu-west-1";
  auto message = error_of(loc, options());
  EXPECT_EQ(message.rfind(at + ".s3.region: ", 0), 0u) << message;
  EXPECT_NE(message.find("AuthorizationHeaderMalformed"), std::string::npos) << message;
}

TEST_F(artifact_s3, an_object_over_the_limit_is_refused) {
  server.put_object("workflows", "big.yaml",
                    "kind: Pod\ndata: \"" + std::string(8192, 'x') + "\"\n");
  auto opts = options();
  opts.max_bytes = 4096;
  EXPECT_EQ(error_of(location("workflows", "big.yaml"), opts),
            at + ".s3: the artifact is larger than the limit of 4096 bytes");
}

TEST_F(artifact_s3, without_insecure_the_request_is_https) {
  auto loc = location();
  loc.s3->insecure = false;
  auto message = error_of(loc, options());
  EXPECT_EQ(message.rfind(at + ".s3: GET https://" + server.endpoint()
                            + "/workflows/hello-world.yaml failed: ",
                          0),
            0u)
    << message;
  EXPECT_TRUE(server.requests().empty()) << "no plain-text request was answered";
}

TEST_F(artifact_s3, empty_keys_send_an_unsigned_request_as_minio_go_does) {
  secrets = keys("", " \n");
  auto message = error_of(location(), options());
  EXPECT_EQ(message, at + ".s3: GetObject workflows/hello-world.yaml at " + server.endpoint()
                       + " answered HTTP 403 AccessDenied: Access Denied.");
  ASSERT_EQ(server.requests().size(), 1u);
  EXPECT_EQ(server.requests()[0].error_code, "AccessDenied") << "no Authorization was sent";
}

TEST_F(artifact_s3, a_missing_secret_is_an_error_at_its_selector) {
  auto loc = location();
  loc.s3->access_key = dsl::secret_key_selector{"other", "accesskey"};
  EXPECT_EQ(error_of(loc, options()), at + ".s3.accessKey: no secret other/accesskey");
  EXPECT_TRUE(server.requests().empty());
}

TEST_F(artifact_s3, a_bucket_name_minio_would_refuse_is_an_error_before_any_request) {
  for (const char* bad : {"ab", "-workflows", "work..flows"}) {
    auto message = error_of(location(bad, "k"), options());
    EXPECT_EQ(message.rfind(at + ".s3.bucket.name: \"" + bad + "\" is not a valid bucket name", 0),
              0u)
      << message;
  }
  EXPECT_TRUE(server.requests().empty());
}

class s3_trigger : public test::trigger_fixture {};

TEST_F(s3_trigger, a_k8s_trigger_creates_the_object_it_reads_from_s3) {
  s3_server s3;
  s3.put_object("manifests", "cm.yaml",
                "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: from-s3}\n"
                "data: {greeting: hello}\n");
  secrets = keys(s3.options().access_key, s3.options().secret_key);
  load("    - template:\n        name: t\n        k8s:\n          operation: create\n"
       "          source:\n            s3:\n"
       "              bucket: {name: manifests, key: cm.yaml}\n"
       "              endpoint: '"
       + s3.endpoint()
       + "'\n"
         "              insecure: true\n"
         "              accessKey: {name: minio, key: accesskey}\n"
         "              secretKey: {name: minio, key: secretkey}\n"
         "          parameters:\n"
         "            - src: {dependencyName: d, dataKey: text}\n"
         "              dest: data.greeting\n");
  auto outcome = fire(*executor(), {{"text", "from the event"}});
  ASSERT_TRUE(outcome.ok) << outcome.error;
  auto cm = server.get("v1", "ConfigMap", "default", "from-s3");
  ASSERT_TRUE(cm);
  EXPECT_EQ((*cm)["data"]["greeting"], "from the event");
  EXPECT_EQ((*cm)["metadata"]["labels"]["events.argoproj.io/trigger"], "t");
  ASSERT_EQ(s3.requests().size(), 1u);
  EXPECT_EQ(s3.requests()[0].error_code, "");
}

TEST_F(s3_trigger, an_s3_refusal_fails_the_execution_naming_the_field) {
  s3_server s3;
  secrets = keys(s3.options().access_key, s3.options().secret_key);
  load("    - template:\n        name: t\n        k8s:\n          source:\n            s3:\n"
       "              bucket: {name: manifests, key: absent.yaml}\n"
       "              endpoint: '"
       + s3.endpoint()
       + "'\n"
         "              insecure: true\n"
         "              accessKey: {name: minio, key: accesskey}\n"
         "              secretKey: {name: minio, key: secretkey}\n");
  auto outcome = fire(*executor());
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("k8s.source.s3.bucket.name: GetObject manifests/absent.yaml"),
            std::string::npos)
    << outcome.error;
  EXPECT_NE(outcome.error.find("NoSuchBucket"), std::string::npos) << outcome.error;
}

} // namespace
} // namespace ganglion::kubernetes::detail
