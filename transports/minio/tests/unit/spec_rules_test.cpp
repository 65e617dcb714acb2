// Rules of the minio kind: Argo's minio validate.go plus ganglion's (bucket required, endpoint
// and bucket name as minio-go takes them). Every diagnostic is checked at its path and
// line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(minio_spec_rules, minio_source_rules) {
  auto yaml = event_source_yaml("  minio:\n    a:\n      events: [\"\"]\n"
                                "    b:\n      endpoint: http://m:9000/x\n"
                                "      bucket: {name: \"..\"}\n"
                                "      accessKey: {name: k}\n      secretKey: {name: s, key: k}\n"
                                "    c:\n      endpoint: m:9000\n      bucket: {name: input}\n"
                                "      accessKey: {name: k, key: a}\n"
                                "      secretKey: {name: s, key: k}\n");
  auto r = load(yaml);
  const auto a = position_of(yaml, "a:\n      events");
  EXPECT_TRUE(has_diagnostic(r, "spec.minio.a.accessKey", a, "accessKey is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.minio.a.secretKey", a, "secretKey is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.minio.a.endpoint", a, "endpoint is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.minio.a.bucket", a, "bucket is required"));
  EXPECT_TRUE(
    has_diagnostic(r, "spec.minio.a.events[0]", position_of(yaml, "\"\"]"), "unknown event"));
  EXPECT_TRUE(has_diagnostic(r, "spec.minio.b.endpoint", position_of(yaml, "endpoint: http"),
                             "without a scheme"));
  EXPECT_TRUE(has_diagnostic(r, "spec.minio.b.bucket.name", position_of(yaml, "name: \"..\""),
                             "is not a valid bucket name"));
  EXPECT_TRUE(has_diagnostic(r, "spec.minio.b.accessKey.key",
                             position_of(yaml, "accessKey: {name: k}"), "key is required"));
  for (const auto& d : r.diagnostics)
    EXPECT_EQ(d.path.find("spec.minio.c"), std::string::npos) << d.to_string();
}
