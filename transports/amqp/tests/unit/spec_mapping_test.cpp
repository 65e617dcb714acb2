// YAML → the amqp kind's model (spec.amqp.<event>): every Argo field lands in its struct field,
// and a part left out takes Argo's defaults for that part.

#include <gtest/gtest.h>

#include "ganglion/amqp/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace amqp = ganglion::amqp;
using namespace ganglion::dsl::testing;

TEST(amqp_spec_mapping, amqp_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  amqp:
    example:
      url: amqps://rabbitmq-service.argo-events:5671
      jsonBody: true
      exchangeName: test
      exchangeType: fanout
      routingKey: hello
      connectionBackoff: {duration: 10s, steps: 5, factor: 2, jitter: 0.2}
      exchangeDeclare: {durable: false, autoDelete: true, internal: true}
      queueDeclare:
        name: my-queue-name
        durable: true
        autoDelete: true
        exclusive: false
        arguments: |-
          x-queue-type: quorum
      queueBind: {}
      consume: {consumerTag: my-consumer-tag, exclusive: true, noLocal: true}
      auth:
        username: {name: my-secret, key: username}
        password: {name: my-secret, key: password}
      tls: {caCertSecret: {name: tls, key: ca}}
      metadata: {team: a}
      filter: {expression: "true"}
    secret:
      urlSecret: {name: rabbit, key: url}
      exchangeName: x
      exchangeType: topic
      routingKey: "a.#"
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  const auto& a = event_spec<amqp::event_spec>(es, "amqp", "example");
  EXPECT_EQ(a.url, "amqps://rabbitmq-service.argo-events:5671");
  EXPECT_FALSE(a.url_secret);
  EXPECT_TRUE(a.json_body);
  EXPECT_EQ(a.exchange_name, "test");
  EXPECT_EQ(a.exchange_type, "fanout");
  EXPECT_EQ(a.routing_key, "hello");
  ASSERT_TRUE(a.connection_backoff);
  EXPECT_EQ(a.connection_backoff->duration_ns, 10'000'000'000);
  EXPECT_EQ(a.connection_backoff->steps, 5);
  EXPECT_EQ(a.connection_backoff->factor, 2.0);
  EXPECT_EQ(a.connection_backoff->jitter, 0.2);
  EXPECT_FALSE(a.exchange.durable);
  EXPECT_TRUE(a.exchange.auto_delete);
  EXPECT_TRUE(a.exchange.internal);
  EXPECT_EQ(a.queue.name, "my-queue-name");
  EXPECT_TRUE(a.queue.durable);
  EXPECT_TRUE(a.queue.auto_delete);
  EXPECT_FALSE(a.queue.exclusive);
  EXPECT_EQ(a.queue.arguments, "x-queue-type: quorum");
  EXPECT_FALSE(a.bind.no_wait);
  EXPECT_TRUE(a.consume_given);
  EXPECT_EQ(a.consumer.consumer_tag, "my-consumer-tag");
  EXPECT_FALSE(a.consumer.auto_ack);
  EXPECT_TRUE(a.consumer.exclusive);
  EXPECT_TRUE(a.consumer.no_local);
  ASSERT_TRUE(a.auth);
  EXPECT_EQ(a.auth->username->key, "username");
  EXPECT_EQ(a.auth->password->key, "password");
  EXPECT_EQ(a.tls->ca_cert_secret->key, "ca");
  EXPECT_EQ(a.metadata.at("team"), "a");
  EXPECT_EQ(es.spec.find("amqp", "example")->filter->expression, "true");

  const auto& s = event_spec<amqp::event_spec>(es, "amqp", "secret");
  EXPECT_TRUE(s.url.empty());
  EXPECT_EQ(s.url_secret->name, "rabbit");
  EXPECT_EQ(s.url_secret->key, "url");
  EXPECT_EQ(s.routing_key, "a.#");
}

TEST(amqp_spec_mapping, parts_left_out_take_argos_defaults) {
  auto r = load(event_source_yaml("  amqp:\n    e:\n      url: amqp://h\n      exchangeName: x\n"
                                  "      exchangeType: direct\n      routingKey: k\n"));
  const auto& a = event_spec<amqp::event_spec>(only<event_source>(r), "amqp", "e");
  EXPECT_FALSE(a.connection_backoff);
  EXPECT_TRUE(a.exchange.durable);
  EXPECT_FALSE(a.exchange.auto_delete || a.exchange.internal || a.exchange.no_wait);
  EXPECT_TRUE(a.queue.name.empty());
  EXPECT_FALSE(a.queue.durable || a.queue.auto_delete || a.queue.no_wait);
  EXPECT_TRUE(a.queue.exclusive);
  EXPECT_TRUE(a.queue.arguments.empty());
  // *ganglion*: consume left out acknowledges after the bus (Argo: autoAck true).
  EXPECT_FALSE(a.consume_given);
  EXPECT_FALSE(a.consumer.auto_ack);
  EXPECT_FALSE(a.json_body);
  EXPECT_FALSE(a.tls || a.auth || a.url_secret);
}

TEST(amqp_spec_mapping, a_part_given_keeps_go_zero_values_for_what_it_leaves_out) {
  auto r = load(event_source_yaml("  amqp:\n    e:\n      url: amqp://h\n      exchangeName: x\n"
                                  "      exchangeType: direct\n      routingKey: k\n"
                                  "      exchangeDeclare: {internal: false}\n"
                                  "      queueDeclare: {name: q}\n"));
  const auto& a = event_spec<amqp::event_spec>(only<event_source>(r), "amqp", "e");
  EXPECT_FALSE(a.exchange.durable);
  EXPECT_EQ(a.queue.name, "q");
  EXPECT_FALSE(a.queue.exclusive);
}
