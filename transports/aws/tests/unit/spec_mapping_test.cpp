// YAML → the aws kinds' models (spec.sqs.<event>, spec.sns.<event>, template.awsLambda): every Argo field lands
// in its struct field, with Argo's defaults.

#include <gtest/gtest.h>

#include "ganglion/aws/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace aws = ganglion::aws;
using namespace ganglion::dsl::testing;

TEST(aws_spec_mapping, sqs_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  sqs:
    orders:
      accessKey: {name: aws, key: access}
      secretKey: {name: aws, key: secret}
      sessionToken: {name: aws, key: token}
      region: eu-west-1
      queue: orders
      waitTimeSeconds: 20
      roleARN: arn:aws:iam::1:role/r
      jsonBody: true
      queueAccountId: "1234"
      metadata: {team: a}
      dlq: true
      endpoint: http://127.0.0.1:4566
      filter: {expression: "true"}
    plain:
      region: us-east-1
      queue: q
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  const auto& s = event_spec<aws::sqs_spec>(es, "sqs", "orders");
  EXPECT_EQ(s.access_key->key, "access");
  EXPECT_EQ(s.secret_key->key, "secret");
  EXPECT_EQ(s.session_token->key, "token");
  EXPECT_EQ(s.region, "eu-west-1");
  EXPECT_EQ(s.queue, "orders");
  EXPECT_EQ(s.wait_time_seconds, 20);
  EXPECT_EQ(s.wait_seconds(), 20);
  EXPECT_EQ(s.role_arn, "arn:aws:iam::1:role/r");
  EXPECT_TRUE(s.json_body);
  EXPECT_EQ(s.queue_account_id, "1234");
  EXPECT_EQ(s.metadata.at("team"), "a");
  EXPECT_TRUE(s.dlq);
  EXPECT_EQ(s.endpoint, "http://127.0.0.1:4566");
  EXPECT_EQ(es.spec.find("sqs", "orders")->filter->expression, "true");
  const auto& p = event_spec<aws::sqs_spec>(es, "sqs", "plain");
  EXPECT_FALSE(p.access_key);
  EXPECT_FALSE(p.session_token);
  EXPECT_EQ(p.wait_time_seconds, 0);
  EXPECT_EQ(p.wait_seconds(), 3); // Argo's default
  EXPECT_FALSE(p.json_body);
  EXPECT_FALSE(p.dlq);
  EXPECT_TRUE(p.endpoint.empty());
}

TEST(aws_spec_mapping, sns_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  sns:
    example:
      topicArn: arn:aws:sns:us-east-1:1:test
      webhook: {endpoint: /, port: "12000", method: POST, url: "http://hooks.example"}
      accessKey: {name: aws, key: access}
      secretKey: {name: aws, key: secret}
      region: us-east-1
      roleARN: arn:aws:iam::1:role/r
      metadata: {team: a}
      validateSignature: true
      endpoint: http://127.0.0.1:4566
      filter: {expression: "true"}
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  const auto& s = event_spec<aws::sns_spec>(es, "sns", "example");
  EXPECT_EQ(s.topic_arn, "arn:aws:sns:us-east-1:1:test");
  EXPECT_EQ(s.webhook.endpoint, "/");
  EXPECT_EQ(s.webhook.port, "12000");
  EXPECT_EQ(s.webhook.url, "http://hooks.example");
  EXPECT_EQ(s.access_key->key, "access");
  EXPECT_EQ(s.secret_key->key, "secret");
  EXPECT_EQ(s.region, "us-east-1");
  EXPECT_EQ(s.role_arn, "arn:aws:iam::1:role/r");
  EXPECT_EQ(s.metadata.at("team"), "a");
  EXPECT_TRUE(s.validate_signature);
  EXPECT_EQ(s.endpoint, "http://127.0.0.1:4566");
  EXPECT_EQ(es.spec.find("sns", "example")->filter->expression, "true");
}

TEST(aws_spec_mapping, aws_lambda_trigger_fields_are_modelled) {
  auto r = load(sensor_yaml(R"(    - template:
        name: invoke
        awsLambda:
          functionName: hello
          region: us-east-1
          accessKey: {name: aws, key: access}
          secretKey: {name: aws, key: secret}
          invocationType: Event
          roleARN: arn:aws:iam::1:role/r
          payload:
            - src: {dependencyName: d, dataKey: body.name}
              dest: name
          parameters:
            - src: {dependencyName: d, dataKey: body.fn}
              dest: functionName
)"));
  const auto& t = only_template(r);
  ASSERT_TRUE(clean(r));
  const auto& l = action_spec<aws::lambda_spec>(t);
  EXPECT_EQ(l.function_name, "hello");
  EXPECT_EQ(l.region, "us-east-1");
  EXPECT_EQ(l.access_key->name, "aws");
  EXPECT_EQ(l.secret_key->key, "secret");
  EXPECT_EQ(l.invocation_type, "Event");
  EXPECT_EQ(l.role_arn, "arn:aws:iam::1:role/r");
  ASSERT_EQ(t.actions[0].payload.size(), 1u);
  EXPECT_EQ(t.actions[0].payload[0].dest, "name");
  ASSERT_EQ(t.actions[0].parameters.size(), 1u);
  EXPECT_EQ(t.actions[0].parameters[0].dest, "functionName");
}
