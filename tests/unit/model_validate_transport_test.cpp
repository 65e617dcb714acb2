// Rules shared by the Kafka and NATS kinds (TLS) and the EventSource rules they meet (event
// names, deployment strategy). Each kind's own rules are in transports/<kind>/tests/.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(model_validate_transport, valid_kafka_and_nats_sources_have_no_diagnostics) {
  EXPECT_TRUE(clean(load(event_source_yaml("  kafka:\n"
                                "    a: {url: k, topic: t, partition: \"0\"}\n"
                                "    b: {url: k, topic: t, consumerGroup: {groupName: g}}\n"
                                "  nats:\n"
                                "    c: {url: \"nats://n\", subject: s, queue: q}\n"))));
}

TEST(model_validate_transport, tls_needs_a_certificate_or_a_flag) {
  auto yaml = event_source_yaml("  kafka:\n    k:\n      url: k\n      topic: t\n      partition: \"0\"\n"
                     "      tls: {}\n"
                     "  nats:\n    n:\n      url: \"nats://n\"\n      subject: s\n"
                     "      tls: {clientKeySecret: {name: t, key: k}}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.k.tls", position_of(yaml, "tls"),
                             "tls needs caCertSecret, clientCertSecret and clientKeySecret, "
                             "insecureSkipVerify or enabled: true"));
  EXPECT_TRUE(has_diagnostic(r, "spec.nats.n.tls", position_of(yaml, "tls", 2),
                             "both clientCertSecret and clientKeySecret"));
  EXPECT_TRUE(clean(load(event_source_yaml("  nats:\n    n: {url: \"nats://n\", subject: s, "
                                "tls: {insecureSkipVerify: true}}\n"))));
}

TEST(model_validate_transport, kafka_and_nats_event_names_and_strategy_follow_argo) {
  auto yaml = event_source_yaml("  kafka:\n    same: {url: k, topic: t, partition: \"0\"}\n"
                     "  nats:\n    same: {url: \"nats://n\", subject: s}\n"
                     "  webhook:\n    w: {port: \"1\", endpoint: /a, method: POST}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.nats.same", position_of(yaml, "same", 2),
                             "is also used by spec.kafka.same"));
  EXPECT_TRUE(has_diagnostic(r, "spec", 5, 1, "cannot mix nats (active-passive) with webhook"));
}
