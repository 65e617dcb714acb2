// Rules of the azure kinds: Argo's azureeventshub, azureservicebus and azurequeuestorage
// validate.go, and what Argo's azureEventHubs and azureServiceBus triggers need to run. Every
// diagnostic is checked at its path and line:column.

#include <gtest/gtest.h>

#include "ganglion/core/runnability.hpp"
#include "ganglion/http/transport.hpp"
#include "files.hpp"
#include "kinds.hpp"
#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(azure_spec_rules, event_hubs_trigger_rules) {
  auto yaml = sensor_yaml("    - template:\n        name: a\n        azureEventHubs:\n"
                          "          sharedAccessKey: {name: eh}\n"
                          "    - template:\n        name: b\n        azureEventHubs:\n"
                          "          fqdn: ns.servicebus.windows.net\n          hubName: h\n"
                          "          sharedAccessKeyName: {name: eh, key: n}\n"
                          "          sharedAccessKey: {name: eh, key: k}\n"
                          "          payload: []\n");
  auto r = load(yaml);
  const std::string a = "spec.triggers[0].template.azureEventHubs";
  const auto at = position_of(yaml, "azureEventHubs:");
  EXPECT_TRUE(has_diagnostic(r, a + ".fqdn", at, "fqdn is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".hubName", at, "hubName is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".sharedAccessKeyName", at, "sharedAccessKeyName is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".sharedAccessKey.key", position_of(yaml, "sharedAccessKey:"),
                             "key is required"));
  EXPECT_TRUE(has_diagnostic(r, a + ".payload", at, "payload is required"));
  for (const auto& d : r.diagnostics)
    EXPECT_EQ(d.path.find("spec.triggers[1]"), std::string::npos) << d.to_string();
}

TEST(azure_spec_rules, service_bus_trigger_rules) {
  auto yaml = sensor_yaml("    - template:\n        name: a\n        azureServiceBus:\n"
                          "          tls: {clientCertSecret: {name: t, key: c}}\n"
                          "          payload: []\n"
                          "    - template:\n        name: b\n        azureServiceBus:\n"
                          "          connectionString: {name: sb, key: cs}\n"
                          "          queueName: q\n          topicName: t\n"
                          "          payload: []\n");
  auto r = load(yaml);
  const std::string a = "spec.triggers[0].template.azureServiceBus";
  const auto at = position_of(yaml, "azureServiceBus:");
  EXPECT_TRUE(has_diagnostic(r, a + ".connectionString", at, "connectionString is required"));
  EXPECT_TRUE(has_diagnostic(r, a, at, "neither queue name nor topic name is specified"));
  EXPECT_TRUE(has_diagnostic(r, a + ".tls", position_of(yaml, "tls"),
                             "both clientCertSecret and clientKeySecret"));
  EXPECT_TRUE(has_diagnostic(r, "spec.triggers[1].template.azureServiceBus.topicName",
                             position_of(yaml, "topicName"), "goes to queueName",
                             severity::warning));
}

TEST(azure_spec_rules, events_hub_source_rules) {
  auto yaml = event_source_yaml("  azureEventsHub:\n    a:\n"
                                "      sharedAccessKey: {name: eh, key: k}\n"
                                "    b:\n      fqdn: f\n      hubName: h\n"
                                "      sharedAccessKeyName: {name: eh, key: n}\n"
                                "    c:\n      fqdn: f\n      hubName: h\n");
  auto r = load(yaml);
  const auto a = position_of(yaml, "a:\n      sharedAccessKey");
  EXPECT_TRUE(has_diagnostic(r, "spec.azureEventsHub.a.fqdn", a, "FQDN is not specified"));
  EXPECT_TRUE(
    has_diagnostic(r, "spec.azureEventsHub.a.hubName", a, "hub name/path is not specified"));
  EXPECT_TRUE(has_diagnostic(r, "spec.azureEventsHub.a.sharedAccessKeyName", a,
                             "If one is set then both must be set"));
  EXPECT_TRUE(has_diagnostic(r, "spec.azureEventsHub.b.sharedAccessKey",
                             position_of(yaml, "b:\n      fqdn"),
                             "If one is set then both must be set"));
  for (const auto& d : r.diagnostics)
    EXPECT_EQ(d.path.find("spec.azureEventsHub.c"), std::string::npos) << d.to_string();
}

TEST(azure_spec_rules, service_bus_source_rules) {
  auto yaml = event_source_yaml("  azureServiceBus:\n    a:\n      jsonBody: true\n"
                                "    b:\n      connectionString: {name: s, key: c}\n"
                                "      queueName: q\n      topicName: t\n"
                                "    c:\n      fullyQualifiedNamespace: ns\n"
                                "      subscriptionName: s\n"
                                "    d:\n      fullyQualifiedNamespace: ns\n      topicName: t\n"
                                "    e:\n      fullyQualifiedNamespace: ns\n      topicName: t\n"
                                "      subscriptionName: s\n");
  auto r = load(yaml);
  const auto a = position_of(yaml, "a:\n      jsonBody");
  EXPECT_TRUE(has_diagnostic(r, "spec.azureServiceBus.a", a,
                             "ConnectionString or fullyQualifiedNamespace must be specified"));
  EXPECT_TRUE(has_diagnostic(r, "spec.azureServiceBus.a", a,
                             "QueueName or TopicName/SubscriptionName must be specified"));
  EXPECT_TRUE(has_diagnostic(r, "spec.azureServiceBus.b.queueName", position_of(yaml, "queueName"),
                             "cannot be specified at the same time"));
  EXPECT_TRUE(has_diagnostic(r, "spec.azureServiceBus.c.topicName",
                             position_of(yaml, "c:\n      fully"),
                             "TopicName must be specified when SubscriptionName is specified"));
  EXPECT_TRUE(has_diagnostic(r, "spec.azureServiceBus.d.subscriptionName",
                             position_of(yaml, "d:\n      fully"),
                             "SubscriptionName must be specified when TopicName is specified"));
  for (const auto& d : r.diagnostics)
    EXPECT_EQ(d.path.find("spec.azureServiceBus.e"), std::string::npos) << d.to_string();
}

TEST(azure_spec_rules, events_hub_and_service_bus_sources_are_refused_at_the_event_with_why) {
  auto yaml = event_source_yaml("  azureEventsHub:\n    hub:\n      fqdn: f\n      hubName: h\n"
                                "  azureServiceBus:\n    bus:\n"
                                "      fullyQualifiedNamespace: ns\n      queueName: q\n");
  auto r = load(yaml);
  ASSERT_TRUE(clean(r));
  auto kinds = ganglion::app::register_kinds(std::make_shared<ganglion::http::runtime>());
  ganglion::core::runnability_context cx;
  cx.sources = &kinds.sources;
  cx.triggers = &kinds.triggers;
  auto refusals = ganglion::core::check_runnability(r.documents, cx);
  ASSERT_EQ(refusals.size(), 2u);
  EXPECT_EQ(refusals[0].name, "es/hub");
  EXPECT_EQ(refusals[0].why.path, "spec.azureEventsHub.hub");
  EXPECT_EQ(refusals[0].why.where.line, position_of(yaml, "hub:\n").first);
  EXPECT_NE(refusals[0].why.message.find("not run by ganglion: Argo reads Event Hubs over AMQP "
                                         "1.0"),
            std::string::npos)
    << refusals[0].why.message;
  EXPECT_EQ(refusals[1].name, "es/bus");
  EXPECT_NE(refusals[1].why.message.find("not run by ganglion: Argo reads Service Bus over AMQP "
                                         "1.0"),
            std::string::npos)
    << refusals[1].why.message;
}

TEST(azure_spec_rules, queue_storage_source_rules) {
  auto yaml = event_source_yaml("  azureQueueStorage:\n    a:\n      jsonBody: true\n"
                                "    b:\n      connectionString: {name: azure}\n"
                                "      storageAccountName: account\n      queueName: q1\n"
                                "      waitTimeInSeconds: 0\n"
                                "    c:\n      storageAccountName: account\n      queueName: q1\n");
  auto r = load(yaml);
  const auto a = position_of(yaml, "a:\n      jsonBody");
  EXPECT_TRUE(has_diagnostic(r, "spec.azureQueueStorage.a", a,
                             "must specify connection string or storageAccountName"));
  EXPECT_TRUE(has_diagnostic(r, "spec.azureQueueStorage.a.queueName", a,
                             "must specify queue name"));
  EXPECT_TRUE(has_diagnostic(r, "spec.azureQueueStorage.b.connectionString.key",
                             position_of(yaml, "connectionString"), "key is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.azureQueueStorage.b.storageAccountName",
                             position_of(yaml, "storageAccountName"),
                             "ignored: the connection string names the account",
                             severity::warning));
  EXPECT_TRUE(has_diagnostic(r, "spec.azureQueueStorage.b.waitTimeInSeconds",
                             position_of(yaml, "waitTimeInSeconds"),
                             "no pause between empty receives", severity::warning));
  // Argo's rules pass c (Azure AD): `run` refuses it, see the next test.
  for (const auto& d : r.diagnostics)
    EXPECT_EQ(d.path.find("spec.azureQueueStorage.c"), std::string::npos) << d.to_string();
}

TEST(azure_spec_rules, queue_storage_source_without_connection_string_is_refused_naming_it) {
  auto yaml = event_source_yaml("  azureQueueStorage:\n    aad:\n"
                                "      storageAccountName: account\n      queueName: orders\n"
                                "    bad:\n      connectionString: {name: a, key: b}\n"
                                "      queueName: Orders_1\n"
                                "    good:\n      connectionString: {name: a, key: b}\n"
                                "      queueName: orders-1\n");
  auto r = load(yaml);
  ASSERT_TRUE(clean(r));
  auto kinds = ganglion::app::register_kinds(std::make_shared<ganglion::http::runtime>());
  ganglion::core::runnability_context cx;
  cx.sources = &kinds.sources;
  cx.triggers = &kinds.triggers;
  cx.secrets_dir = ganglion::test::temp_dir();
  ganglion::test::write_file(cx.secrets_dir + "/a/b", "UseDevelopmentStorage=true");
  auto refusals = ganglion::core::check_runnability(r.documents, cx);
  std::vector<const ganglion::core::refusal*> ours;
  for (const auto& f : refusals)
    if (f.name == "es/aad" || f.name == "es/bad" || f.name == "es/good")
      ours.push_back(&f);
  ASSERT_EQ(ours.size(), 2u);
  EXPECT_EQ(ours[0]->name, "es/aad");
  EXPECT_EQ(ours[0]->why.path, "spec.azureQueueStorage.aad");
  EXPECT_EQ(ours[0]->why.where.line, position_of(yaml, "aad:\n").first);
  EXPECT_NE(ours[0]->why.message.find("storageAccountName without connectionString is not run "
                                      "by ganglion"),
            std::string::npos)
    << ours[0]->why.message;
  EXPECT_NE(ours[0]->why.message.find("give connectionString"), std::string::npos);
  EXPECT_EQ(ours[1]->name, "es/bad");
  EXPECT_NE(ours[1]->why.message.find("queueName \"Orders_1\" is not an Azure queue name"),
            std::string::npos)
    << ours[1]->why.message;
}
