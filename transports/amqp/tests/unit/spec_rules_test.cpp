// Rules of the amqp kind: Argo's amqp validate.go plus ganglion's checks. Every diagnostic is
// checked at its path and line:column.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(amqp_spec_rules, url_routing_key_exchange_type_and_name_are_required) {
  auto yaml = event_source_yaml("  amqp:\n    queue1: {jsonBody: true}\n");
  auto r = load(yaml);
  const auto at = position_of(yaml, "queue1");
  EXPECT_TRUE(has_diagnostic(r, "spec.amqp.queue1.url", at,
                             "either url or urlSecret must be specified"));
  EXPECT_TRUE(has_diagnostic(r, "spec.amqp.queue1.routingKey", at, "routingKey is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.amqp.queue1.exchangeType", at, "exchangeType is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.amqp.queue1.exchangeName", at,
                             "broker refuses to declare the default exchange"));
}

TEST(amqp_spec_rules, url_and_url_secret_exclude_each_other_and_the_scheme_is_amqp) {
  auto yaml = event_source_yaml(
    "  amqp:\n    a:\n      url: \"http://h\"\n      urlSecret: {name: s, key: url}\n"
    "      exchangeName: x\n      exchangeType: fanout\n      routingKey: k\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.amqp.a.urlSecret", position_of(yaml, "urlSecret"),
                             "only one of url or urlSecret can be specified"));
  EXPECT_TRUE(has_diagnostic(r, "spec.amqp.a.url", position_of(yaml, "url:"),
                             "must start with amqp:// or amqps://"));
}

TEST(amqp_spec_rules, auth_needs_username_and_password_and_tls_is_argos) {
  auto yaml = event_source_yaml(
    "  amqp:\n    a:\n      url: \"amqps://h\"\n      exchangeName: x\n"
    "      exchangeType: fanout\n      routingKey: k\n"
    "      auth: {username: {name: s, key: u}}\n"
    "      tls: {clientCertSecret: {name: t, key: c}}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.amqp.a.auth.password", position_of(yaml, "auth"),
                             "password missing"));
  EXPECT_TRUE(has_diagnostic(r, "spec.amqp.a.tls", position_of(yaml, "tls"),
                             "both clientCertSecret and clientKeySecret"));
}

TEST(amqp_spec_rules, tls_with_an_amqp_url_is_ignored_with_a_warning) {
  auto yaml = event_source_yaml(
    "  amqp:\n    a:\n      url: \"amqp://h\"\n      exchangeName: x\n"
    "      exchangeType: fanout\n      routingKey: k\n"
    "      tls: {insecureSkipVerify: true}\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), "spec.amqp.a.tls", position_of(yaml, "tls"),
                             "TLS is used for amqps:// only", severity::warning));
}

TEST(amqp_spec_rules, no_wait_is_ignored_and_auto_ack_says_what_it_costs) {
  auto yaml = event_source_yaml(
    "  amqp:\n    a:\n      url: \"amqp://h\"\n      exchangeName: x\n"
    "      exchangeType: fanout\n      routingKey: k\n"
    "      queueBind: {noWait: true}\n"
    "      consume: {autoAck: true}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.amqp.a.queueBind.noWait", position_of(yaml, "noWait"),
                             "ignored: ganglion always waits", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, "spec.amqp.a.consume.autoAck", position_of(yaml, "autoAck"),
                             "is lost (at most once)", severity::warning));
}

TEST(amqp_spec_rules, queue_arguments_must_be_a_yaml_mapping_of_scalars_or_lists) {
  auto yaml = event_source_yaml(
    "  amqp:\n    a:\n      url: \"amqp://h\"\n      exchangeName: x\n"
    "      exchangeType: fanout\n      routingKey: k\n"
    "      queueDeclare: {arguments: \"x-queue-type: {nested: 1}\"}\n"
    "    b:\n      url: \"amqp://h\"\n      exchangeName: x\n"
    "      exchangeType: fanout\n      routingKey: k\n"
    "      queueDeclare: {arguments: \"- a list\"}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.amqp.a.queueDeclare.arguments",
                             position_of(yaml, "arguments"), "is a mapping"));
  EXPECT_TRUE(has_diagnostic(r, "spec.amqp.b.queueDeclare.arguments",
                             position_of(yaml, "arguments", 2), "not a YAML mapping"));
}
