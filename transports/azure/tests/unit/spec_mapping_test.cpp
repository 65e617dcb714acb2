// YAML → the azure kinds' model (template.azureEventHubs, template.azureServiceBus,
// spec.azureEventsHub.<event>, spec.azureServiceBus.<event>, spec.azureQueueStorage.<event>):
// every Argo field lands in its struct field.

#include <gtest/gtest.h>

#include "ganglion/azure/spec.hpp"
#include "model_test_kinds.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
namespace azure = ganglion::azure;
using namespace ganglion::dsl::testing;

TEST(azure_spec_mapping, event_hubs_trigger_fields_are_modelled) {
  auto r = load(sensor_yaml("    - template:\n        name: t\n        azureEventHubs:\n"
                            "          fqdn: ns.servicebus.windows.net\n"
                            "          hubName: hub\n"
                            "          sharedAccessKeyName: {name: eh, key: name}\n"
                            "          sharedAccessKey: {name: eh, key: key}\n"
                            "          payload:\n"
                            "            - src: {dependencyName: d, dataKey: body}\n"
                            "              dest: message\n"
                            "          parameters:\n"
                            "            - src: {dependencyName: d, dataKey: body.hub}\n"
                            "              dest: hubName\n"));
  ASSERT_TRUE(clean(r));
  const auto& t = only<sensor>(r).spec.triggers.front().template_;
  const auto& eh = action_spec<azure::event_hubs_trigger_spec>(t);
  EXPECT_EQ(eh.fqdn, "ns.servicebus.windows.net");
  EXPECT_EQ(eh.hub_name, "hub");
  EXPECT_EQ(eh.shared_access_key_name->name, "eh");
  EXPECT_EQ(eh.shared_access_key_name->key, "name");
  EXPECT_EQ(eh.shared_access_key->key, "key");
  EXPECT_EQ(t.actions.front().payload.size(), 1u);
  EXPECT_EQ(t.actions.front().parameters.front().dest, "hubName");
}

TEST(azure_spec_mapping, service_bus_trigger_fields_are_modelled) {
  auto r = load(sensor_yaml("    - template:\n        name: t\n        azureServiceBus:\n"
                            "          connectionString: {name: sb, key: cs}\n"
                            "          topicName: orders\n"
                            "          subscriptionName: all\n"
                            "          tls: {caCertSecret: {name: tls, key: ca}}\n"
                            "          payload: []\n"));
  ASSERT_TRUE(clean(r));
  const auto& sb =
    action_spec<azure::service_bus_trigger_spec>(only<sensor>(r).spec.triggers.front().template_);
  EXPECT_EQ(sb.connection_string->name, "sb");
  EXPECT_EQ(sb.connection_string->key, "cs");
  EXPECT_EQ(sb.queue_name, "");
  EXPECT_EQ(sb.topic_name, "orders");
  EXPECT_EQ(sb.subscription_name, "all");
  EXPECT_EQ(sb.tls->ca_cert_secret->key, "ca");
}

TEST(azure_spec_mapping, refused_sources_are_modelled) {
  auto r = load(event_source_yaml("  azureEventsHub:\n    hub:\n"
                                  "      fqdn: ns.servicebus.windows.net\n      hubName: h\n"
                                  "      sharedAccessKeyName: {name: eh, key: name}\n"
                                  "      sharedAccessKey: {name: eh, key: key}\n"
                                  "      metadata: {team: a}\n"
                                  "  azureServiceBus:\n    bus:\n"
                                  "      connectionString: {name: sb, key: cs}\n"
                                  "      fullyQualifiedNamespace: ns.servicebus.windows.net\n"
                                  "      topicName: t\n      subscriptionName: s\n"
                                  "      jsonBody: true\n      deferDelete: true\n"
                                  "      tls: {enabled: true}\n      metadata: {team: b}\n"));
  ASSERT_TRUE(clean(r));
  const auto& es = only<event_source>(r);
  const auto& eh = event_spec<azure::events_hub_source_spec>(es, "azureEventsHub", "hub");
  EXPECT_EQ(eh.fqdn, "ns.servicebus.windows.net");
  EXPECT_EQ(eh.hub_name, "h");
  EXPECT_EQ(eh.shared_access_key_name->key, "name");
  EXPECT_EQ(eh.shared_access_key->key, "key");
  EXPECT_EQ(eh.metadata.at("team"), "a");
  const auto& sb = event_spec<azure::service_bus_source_spec>(es, "azureServiceBus", "bus");
  EXPECT_EQ(sb.connection_string->key, "cs");
  EXPECT_EQ(sb.fully_qualified_namespace, "ns.servicebus.windows.net");
  EXPECT_EQ(sb.topic_name, "t");
  EXPECT_EQ(sb.subscription_name, "s");
  EXPECT_TRUE(sb.json_body);
  EXPECT_TRUE(sb.defer_delete);
  EXPECT_TRUE(sb.tls->enabled);
  EXPECT_EQ(sb.metadata.at("team"), "b");
}

TEST(azure_spec_mapping, queue_storage_source_fields_are_modelled) {
  auto r = load(event_source_yaml("  azureQueueStorage:\n    full:\n"
                                  "      connectionString: {name: azure, key: cs}\n"
                                  "      queueName: orders\n"
                                  "      jsonBody: true\n"
                                  "      dlq: true\n"
                                  "      metadata: {team: a}\n"
                                  "      decodeMessage: true\n"
                                  "      waitTimeInSeconds: 7\n"
                                  "      filter: {expression: \"true\"}\n"
                                  "    bare:\n"
                                  "      storageAccountName: account\n"
                                  "      queueName: orders\n"));
  ASSERT_TRUE(clean(r));
  const auto& es = only<event_source>(r);
  const auto& q = event_spec<azure::queue_storage_source_spec>(es, "azureQueueStorage", "full");
  EXPECT_EQ(q.connection_string->name, "azure");
  EXPECT_EQ(q.connection_string->key, "cs");
  EXPECT_EQ(q.queue_name, "orders");
  EXPECT_TRUE(q.json_body);
  EXPECT_TRUE(q.dlq);
  EXPECT_EQ(q.metadata.at("team"), "a");
  EXPECT_TRUE(q.decode_message);
  EXPECT_EQ(q.wait_seconds(), 7);
  const auto& b = event_spec<azure::queue_storage_source_spec>(es, "azureQueueStorage", "bare");
  EXPECT_EQ(b.storage_account_name, "account");
  EXPECT_FALSE(b.connection_string.has_value());
  EXPECT_FALSE(b.json_body);
  EXPECT_FALSE(b.dlq);
  EXPECT_FALSE(b.decode_message);
  EXPECT_TRUE(b.metadata.empty());
  EXPECT_FALSE(b.wait_time_in_seconds.has_value());
  EXPECT_EQ(b.wait_seconds(), 3); // Argo's default
}
