// EventSource and EventBus rules: calendar, event names, deployment strategies, the validate.go
// of the source types that have no kind folder, and the EventBus spec.

#include <gtest/gtest.h>

#include "model_test_support.hpp"

using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

TEST(model_validate_source, calendar_needs_a_schedule_or_an_interval) {
  auto yaml = event_source_yaml("  calendar:\n    tick:\n      timezone: UTC\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), "spec.calendar.tick", position_of(yaml, "tick"),
                             "needs a schedule or an interval"));
  EXPECT_TRUE(clean(load(event_source_yaml("  calendar:\n    a: {schedule: \"*/10 9-17 * JAN-MAR MON-FRI\"}\n"
                                "    b: {interval: 1h30m}\n"))));
}

TEST(model_validate_source, calendar_schedule_is_argo_cron_without_descriptors) {
  auto yaml = event_source_yaml("  calendar:\n    a: {schedule: \"* * * *\"}\n    b: {schedule: \"@daily\"}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.calendar.a.schedule", position_of(yaml, "schedule"),
                             "expected exactly 5 fields"));
  EXPECT_TRUE(has_diagnostic(r, "spec.calendar.b.schedule", position_of(yaml, "schedule", 2),
                             "does not accept descriptors"));
}

TEST(model_validate_source, calendar_interval_is_a_go_duration_and_loses_to_schedule) {
  auto yaml = event_source_yaml("  calendar:\n    a: {interval: 10 seconds}\n"
                     "    b: {schedule: \"0 * * * *\", interval: 5m}\n");
  auto r = load(yaml);
  EXPECT_TRUE(has_diagnostic(r, "spec.calendar.a.interval", position_of(yaml, "interval"),
                             "invalid interval \"10 seconds\""));
  EXPECT_TRUE(has_diagnostic(r, "spec.calendar.b.interval", position_of(yaml, "interval", 2),
                             "schedule takes precedence", severity::warning));
}

TEST(model_validate_source, calendar_zone_exclusion_dates_and_catchup) {
  auto yaml = event_source_yaml("  calendar:\n    a:\n      interval: 1m\n      timezone: Moon/Base\n"
                     "      exclusionDates:\n        - \"EXDATE:20190102T150405Z,20191302T000000Z\"\n"
                     "        - \"2019-01-02\"\n"
                     "      persistence: {catchup: {enabled: true, maxDuration: forever}}\n");
  auto r = load(yaml);
  const std::string at = "spec.calendar.a";
  EXPECT_TRUE(has_diagnostic(r, at + ".timezone", position_of(yaml, "timezone"),
                             "unknown time zone \"Moon/Base\""));
  EXPECT_TRUE(has_diagnostic(r, at + ".exclusionDates[0]", position_of(yaml, "\"EXDATE"),
                             "invalid exclusion date \"20191302T000000Z\""));
  EXPECT_TRUE(has_diagnostic(r, at + ".exclusionDates[1]", position_of(yaml, "\"2019-01-02"),
                             "ignored", severity::warning));
  EXPECT_TRUE(has_diagnostic(r, at + ".persistence.catchup.maxDuration",
                             position_of(yaml, "maxDuration"), "invalid duration \"forever\""));
}

TEST(model_validate_source, event_names_are_unique_across_types) {
  auto yaml = event_source_yaml("  nats:\n    same: {url: \"nats://x\", subject: s}\n"
                     "  amqp:\n    same: {url: \"amqp://x\", routingKey: r, exchangeType: fanout}\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), "spec.amqp.same", position_of(yaml, "same", 2),
                             "is also used by spec.nats.same"));
}

TEST(model_validate_source, active_passive_and_active_active_types_do_not_mix) {
  auto yaml = event_source_yaml("  webhook:\n    a: {port: \"1\", endpoint: /a, method: POST}\n"
                     "  calendar:\n    b: {interval: 1m}\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), "spec", 5, 1,
                             "cannot mix calendar (active-passive) with webhook"));
}

TEST(model_validate_source, an_event_source_without_events_is_a_warning) {
  auto yaml = event_source_yaml("  eventBusName: default\n");
  EXPECT_TRUE(has_diagnostic(load(yaml), "spec", 5, 1, "defines no event", severity::warning));
}

TEST(model_validate_source, other_source_types_follow_their_validate_go) {
  auto kafka = event_source_yaml("  kafka:\n    k:\n      url: k:9092\n"
                      "      sasl: {mechanism: MD5}\n      tls: {clientCertSecret: {key: c}}\n");
  auto r = load(kafka);
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.k.topic", position_of(kafka, "k:\n"),
                             "topic is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.k", position_of(kafka, "k:\n"),
                             "needs partition or consumerGroup"));
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.k.sasl.mechanism", position_of(kafka, "mechanism"),
                             "got \"MD5\""));
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.k.sasl.userSecret", position_of(kafka, "sasl"),
                             "userSecret is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.kafka.k.tls", position_of(kafka, "tls"),
                             "both clientCertSecret and clientKeySecret"));

  auto sns = event_source_yaml("  sns:\n    g:\n      topicArn: t\n      region: r\n");
  EXPECT_TRUE(has_diagnostic(load(sns), "spec.sns.g.webhook.endpoint", position_of(sns, "g:"),
                             "endpoint is required"));
}

TEST(model_validate_source, the_argo_corpus_kinds_of_hdfs_watch_paths_are_inline) {
  auto yaml = event_source_yaml("  hdfs:\n    h:\n      directory: /tmp/\n      path: x.txt\n"
                     "      type: CREATE\n      addresses: [\"nn:8020\"]\n      hdfsUser: root\n");
  EXPECT_TRUE(clean(load(yaml)));
}

TEST(model_validate_bus, an_event_bus_needs_exactly_a_known_kind_with_its_settings) {
  auto none = event_bus_yaml("  {}\n");
  EXPECT_TRUE(has_diagnostic(load(none), "spec", 5, 1, "needs one of nats, jetstream"));
  auto js = event_bus_yaml("  jetstream:\n    replicas: 2\n");
  auto r = load(js);
  EXPECT_TRUE(has_diagnostic(r, "spec.jetstream.version", position_of(js, "jetstream"),
                             "version is required"));
  EXPECT_TRUE(has_diagnostic(r, "spec.jetstream.replicas", position_of(js, "replicas"),
                             "1 replica or at least 3"));
  auto nats = event_bus_yaml("  nats:\n    native: {}\n    exotic: {url: \"nats://x\"}\n");
  auto nr = load(nats);
  EXPECT_TRUE(has_diagnostic(nr, "spec.nats", position_of(nats, "nats:"),
                             "native or exotic, not both"));
  EXPECT_TRUE(has_diagnostic(nr, "spec.nats.exotic.clusterID", position_of(nats, "exotic"),
                             "clusterID is required"));
  auto kafka = event_bus_yaml("  kafka:\n    topic: events\n");
  EXPECT_TRUE(has_diagnostic(load(kafka), "spec.kafka.url", position_of(kafka, "kafka"),
                             "url is required"));
  EXPECT_TRUE(clean(load(event_bus_yaml("  jetstream:\n    version: latest\n"))));
}
