// YAML → the nats kind's model (spec.nats.<event>, template.nats): every Argo field lands in its
// struct field.

#include <gtest/gtest.h>

#include "ganglion/nats/spec.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace nats = ganglion::nats;
using namespace ganglion::dsl::testing;

TEST(nats_spec_mapping, nats_event_source_fields_are_modelled) {
  auto r = load(R"(apiVersion: argoproj.io/v1alpha1
kind: EventSource
metadata: {name: es}
spec:
  nats:
    orders:
      url: nats://n:4222
      subject: orders.>
      queue: workers
      jsonBody: true
      tls: {caCertSecret: {name: tls, key: ca}}
      auth:
        basic:
          username: {name: nats, key: user}
          password: {name: nats, key: password}
      metadata: {team: a}
      filter: {expression: "true"}
    tokened:
      url: nats://n:4222
      subject: s
      auth: {token: {name: nats, key: token}}
    keyed:
      url: nats://n:4222
      subject: s
      auth: {nkey: {name: nats, key: seed}}
    creds:
      url: nats://n:4222
      subject: s
      auth: {credential: {name: nats, key: creds}}
)");
  const auto& es = only<event_source>(r);
  ASSERT_TRUE(clean(r));
  const auto& n = event_spec<nats::event_spec>(es, "nats", "orders");
  EXPECT_EQ(n.url, "nats://n:4222");
  EXPECT_EQ(n.subject, "orders.>");
  EXPECT_EQ(n.queue, "workers");
  EXPECT_TRUE(n.json_body);
  EXPECT_EQ(n.tls->ca_cert_secret->key, "ca");
  ASSERT_TRUE(n.auth && n.auth->basic);
  EXPECT_EQ(n.auth->basic->username->key, "user");
  EXPECT_EQ(n.auth->basic->password->key, "password");
  EXPECT_FALSE(n.auth->token);
  EXPECT_EQ(n.metadata.at("team"), "a");
  EXPECT_EQ(es.spec.find("nats", "orders")->filter->expression, "true");
  EXPECT_EQ(event_spec<nats::event_spec>(es, "nats", "tokened").auth->token->key, "token");
  EXPECT_EQ(event_spec<nats::event_spec>(es, "nats", "keyed").auth->nkey->key, "seed");
  EXPECT_EQ(event_spec<nats::event_spec>(es, "nats", "creds").auth->credential->key, "creds");
  EXPECT_FALSE(event_spec<nats::event_spec>(es, "nats", "creds").json_body);
  EXPECT_EQ(event_spec<nats::event_spec>(es, "nats", "creds").queue, "");
}

TEST(nats_spec_mapping, nats_trigger_fields_are_modelled) {
  auto r = load(sensor_yaml("") + R"(    - template:
        name: publish
        nats:
          url: nats://n:4222
          subject: out
          tls: {caCertSecret: {name: tls, key: ca}}
          auth: {nkey: {name: nats, key: seed}}
          payload:
            - src: {dependencyName: d, dataKey: body}
              dest: order
          parameters:
            - src: {dependencyName: d, dataKey: body.subject}
              dest: subject
)");
  const auto& t = only_template(r);
  ASSERT_TRUE(clean(r));
  const auto& n = action_spec<nats::trigger_spec>(t);
  EXPECT_EQ(n.url, "nats://n:4222");
  EXPECT_EQ(n.subject, "out");
  EXPECT_EQ(n.tls->ca_cert_secret->key, "ca");
  EXPECT_EQ(n.auth->nkey->key, "seed");
  ASSERT_EQ(t.actions[0].payload.size(), 1u);
  EXPECT_EQ(t.actions[0].payload[0].src.data_key, "body");
  ASSERT_EQ(t.actions[0].parameters.size(), 1u);
  EXPECT_EQ(t.actions[0].parameters[0].dest, "subject");
}
