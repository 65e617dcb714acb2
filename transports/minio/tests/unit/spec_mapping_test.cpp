// YAML → the minio kind's model (spec.minio.<event>): every Argo field of S3Artifact lands in
// its struct field.

#include <gtest/gtest.h>

#include "ganglion/minio/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace minio = ganglion::minio;
using namespace ganglion::dsl::testing;

TEST(minio_spec_mapping, minio_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  minio:
    example:
      bucket: {name: input, key: unused}
      endpoint: minio-service.argo-events:9000
      region: eu-west-1
      insecure: true
      accessKey: {name: artifacts-minio, key: accesskey}
      secretKey: {name: artifacts-minio, key: secretkey}
      caCertificate: {name: minio-ca, key: ca.pem}
      events: [s3:ObjectCreated:Put, s3:ObjectRemoved:Delete]
      filter: {prefix: in/, suffix: .csv}
      metadata: {team: data}
)");
  ASSERT_TRUE(clean(r)) << dump(r);
  const auto& es = only<event_source>(r);
  const auto& m = event_spec<minio::event_spec>(es, "minio", "example");
  EXPECT_EQ(m.endpoint, "minio-service.argo-events:9000");
  ASSERT_TRUE(m.bucket);
  EXPECT_EQ(m.bucket->name, "input");
  EXPECT_EQ(m.bucket->key, "unused");
  EXPECT_EQ(m.region, "eu-west-1");
  EXPECT_TRUE(m.insecure);
  EXPECT_EQ(m.access_key->name, "artifacts-minio");
  EXPECT_EQ(m.access_key->key, "accesskey");
  EXPECT_EQ(m.secret_key->key, "secretkey");
  EXPECT_EQ(m.ca_certificate->key, "ca.pem");
  EXPECT_EQ(m.events,
            (std::vector<std::string>{"s3:ObjectCreated:Put", "s3:ObjectRemoved:Delete"}));
  EXPECT_EQ(m.prefix, "in/");
  EXPECT_EQ(m.suffix, ".csv");
  EXPECT_EQ(m.metadata.at("team"), "data");
}
