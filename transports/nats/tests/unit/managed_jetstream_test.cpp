// Cluster mode's managed JetStream EventBus: reached where Argo's controller puts it (its
// Service, client-auth Secret and server CA), or where the EventBus's status says it is.

#include <gtest/gtest.h>

#include "bus/managed_jetstream.hpp"

using namespace ganglion;

namespace {

/// The metadata of the EventBus `name` of namespace `ns`.
dsl::object_meta meta(const std::string& name, const std::string& ns) {
  dsl::object_meta out;
  out.name = name;
  out.namespace_ = ns;
  return out;
}

/// The managed `spec.jetstream` of that EventBus, with a stream setting of its own.
nats::bus_spec managed() {
  nats::bus_spec spec;
  spec.managed = true;
  spec.stream.max_msgs = 10;
  return spec;
}

} // namespace

TEST(nats_managed_jetstream, without_status_it_is_the_service_and_secrets_argo_deploys) {
  auto js = nats::detail::argo_managed_jetstream(meta("default", "argo-events"), managed(), "{}");
  EXPECT_EQ(js.url, "nats://eventbus-default-js-svc.argo-events.svc:4222");
  ASSERT_TRUE(js.access_secret);
  EXPECT_EQ(js.access_secret->name, "eventbus-default-js-client-auth");
  EXPECT_EQ(js.access_secret->key, "client-auth");
  ASSERT_TRUE(js.tls);
  ASSERT_TRUE(js.tls->ca_cert_secret);
  EXPECT_EQ(js.tls->ca_cert_secret->name, "eventbus-default-js-server");
  EXPECT_EQ(js.tls->ca_cert_secret->key, "ca-cert");
  EXPECT_FALSE(js.tls->insecure_skip_verify);
  EXPECT_FALSE(js.tls->client_cert_secret);
  EXPECT_EQ(js.stream.max_msgs, 10) << "the manifest's stream settings are kept";
}

TEST(nats_managed_jetstream, the_status_config_argo_writes_is_preferred) {
  auto status = R"({"conditions": [],
    "config": {"jetstream": {"url": "nats://10.0.0.7:4222",
                             "accessSecret": {"name": "js-auth", "key": "creds"},
                             "streamConfig": "maxMsgs: 5"}}})";
  auto js = nats::detail::argo_managed_jetstream(meta("bus", "team"), managed(), status);
  EXPECT_EQ(js.url, "nats://10.0.0.7:4222");
  ASSERT_TRUE(js.access_secret);
  EXPECT_EQ(js.access_secret->name, "js-auth");
  EXPECT_EQ(js.access_secret->key, "creds");
  ASSERT_TRUE(js.tls && js.tls->ca_cert_secret);
  EXPECT_EQ(js.tls->ca_cert_secret->name, "eventbus-bus-js-server");
}

TEST(nats_managed_jetstream, a_partial_or_malformed_status_falls_back_to_argos_names) {
  for (const auto* status :
       {"", "[]", R"({"config": "x"})", R"({"config": {"jetstream": 1}})",
        R"({"config": {"jetstream": {"url": 4, "accessSecret": {"name": "a"}}}})",
        R"({"config": {"nats": {"url": "nats://stan:4222"}}})"}) {
    auto js = nats::detail::argo_managed_jetstream(meta("b", "ns"), managed(), status);
    EXPECT_EQ(js.url, "nats://eventbus-b-js-svc.ns.svc:4222") << status;
    ASSERT_TRUE(js.access_secret) << status;
    EXPECT_EQ(js.access_secret->name, "eventbus-b-js-client-auth") << status;
  }
  auto url_only = nats::detail::argo_managed_jetstream(
    meta("b", "ns"), managed(), R"({"config": {"jetstream": {"url": "nats://x:1"}}})");
  EXPECT_EQ(url_only.url, "nats://x:1");
  EXPECT_EQ(url_only.access_secret->name, "eventbus-b-js-client-auth");
}
