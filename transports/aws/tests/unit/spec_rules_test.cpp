// Rules of the aws kinds: Argo's awssqs and awssns validate.go and validateAWSLambdaTrigger plus
// ganglion's stricter checks. Every diagnostic is checked at its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(aws_spec_rules, sqs_source_rules) {
  auto yaml = event_source_yaml(
    "  sqs:\n    n:\n      jsonBody: true\n"
    "    m:\n      region: r\n      queue: q\n      waitTimeSeconds: 21\n"
    "      accessKey: {name: aws, key: a}\n"
    "    t:\n      region: r\n      queue: q\n      sessionToken: {name: aws, key: t}\n");
  auto r = load(yaml);
  const auto n = position_of(yaml, "n:\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.sqs.n.region", n, "region is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.sqs.n.queue", n, "queue is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.sqs.m.waitTimeSeconds", position_of(yaml, "waitTimeSeconds"),
                             "waitTimeSeconds must be between 0 and 20"));
  EXPECT_TRUE(has_diagnostic(r, "spec.sqs.m.secretKey", position_of(yaml, "m:\n"),
                             "secretKey is required with accessKey"));
  EXPECT_TRUE(has_diagnostic(r, "spec.sqs.t.sessionToken", position_of(yaml, "sessionToken"),
                             "the session token is read only with accessKey and secretKey",
                             severity::warning));
}

TEST(aws_spec_rules, sns_source_rules) {
  auto yaml = event_source_yaml(
    "  sns:\n    n:\n      validateSignature: true\n"
    "    m:\n      topicArn: arn:aws:sns:us-east-1:1:t\n      region: us-east-1\n"
    "      secretKey: {name: aws, key: s}\n"
    "      webhook: {endpoint: /m, port: \"12000\", method: POST}\n");
  auto r = load(yaml);
  const auto n = position_of(yaml, "n:\n");
  EXPECT_TRUE(has_diagnostic(r, "spec.sns.n.topicArn", n, "must specify topic arn"));
  EXPECT_TRUE(has_diagnostic(r, "spec.sns.n.region", n, "must specify region"));
  EXPECT_TRUE(has_diagnostic(r, "spec.sns.n.webhook.endpoint", n, "endpoint is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.sns.m.accessKey", position_of(yaml, "m:\n"),
                             "accessKey is required with secretKey"));
  EXPECT_TRUE(has_diagnostic(r, "spec.sns.m.webhook.url", position_of(yaml, "webhook: {"),
                             "webhook.url is required: it is the URL SNS posts to"));
}

TEST(aws_spec_rules, aws_lambda_trigger_rules) {
  auto yaml = sensor_yaml(
    "    - template:\n        name: a\n        awsLambda:\n          invocationType: Later\n"
    "          secretKey: {name: aws, key: s}\n"
    "          parameters:\n            - src: {dependencyName: d, dataKey: x}\n"
    "    - template:\n        name: b\n"
    "        awsLambda: {functionName: f, region: r, payload: []}\n");
  auto r = load(yaml);
  const std::string a = "spec.triggers[0].template.awsLambda";
  const auto lambda = position_of(yaml, "awsLambda:");
  EXPECT_TRUE(has_diagnostic(r, a + ".functionName", lambda, "functionName is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".region", lambda, "region is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".payload", lambda, "payload is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".accessKey", lambda, "accessKey is required with secretKey"));
  EXPECT_TRUE(has_diagnostic(r, a + ".invocationType", position_of(yaml, "invocationType"),
                             "invocationType must be RequestResponse, Event or DryRun"));
  EXPECT_TRUE(has_diagnostic(r, a + ".parameters[0].dest", position_of(yaml, "src:"),
                             "dest is required"));
  for (const auto& d : r.diagnostics)
    EXPECT_EQ(d.path.find("spec.triggers[1]"), std::string::npos) << d.to_string();
}
