// The EventBus kinds of the nats transport: `spec.jetstream` (managed) and
// `spec.jetstreamExotic` into nats::bus_spec, the `streamConfig` YAML string read as Argo's viper
// does, and their rules with locations inside the string.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ganglion/nats/spec.hpp"
#include "model_test_kinds.hpp"
#include "model_test_support.hpp"

using namespace ganglion;
using namespace ganglion::dsl;
using namespace ganglion::dsl::testing;

namespace {

constexpr std::int64_t second = 1000000000;

} // namespace

TEST(nats_bus_spec, jetstream_stream_config_is_read_over_ganglions_defaults) {
  auto r = load(event_bus_yaml(R"(  jetstream:
    version: latest
    replicas: 3
    maxPayload: 2MB
    streamConfig: |
      maxMsgs: 50000
      MaxAge: 24h
      maxBytes: 1073741824
      replicas: 3
      duplicates: 2m
      retention: 1
      discard: old
)"));
  const auto& b = only<event_bus>(r);
  ASSERT_TRUE(clean(r));
  EXPECT_EQ(b.spec.type, "jetstream");
  EXPECT_EQ(nlohmann::json::parse(b.spec.json)["streamConfig"].get<std::string>().substr(0, 14),
            "maxMsgs: 50000");
  const auto& js = bus_spec<nats::bus_spec>(b);
  EXPECT_TRUE(js.managed);
  EXPECT_EQ(js.version, "latest");
  EXPECT_EQ(js.replicas.value_or(0), 3);
  EXPECT_EQ(js.url, "");
  EXPECT_EQ(js.max_payload, 2 * 1024 * 1024);
  EXPECT_EQ(js.stream_name, "default");
  EXPECT_EQ(js.stream.max_msgs, 50000);
  EXPECT_EQ(js.stream.max_age_ns, 24 * 3600 * second);
  EXPECT_EQ(js.stream.max_bytes, 1073741824);
  EXPECT_EQ(js.stream.replicas, 3);
  EXPECT_EQ(js.stream.duplicates_ns, 120 * second);
  EXPECT_EQ(js.stream.retention, "interest");
  EXPECT_EQ(js.stream.discard, "old");

  auto defaults = load(event_bus_yaml("  jetstream:\n    version: latest\n"));
  const auto& d = bus_spec<nats::bus_spec>(only<event_bus>(defaults)).stream;
  ASSERT_TRUE(clean(defaults));
  EXPECT_EQ(d.max_msgs, -1);
  EXPECT_EQ(d.max_age_ns, 168 * 3600 * second);
  EXPECT_EQ(d.duplicates_ns, 300 * second);
  EXPECT_EQ(d.retention, "limits");
  EXPECT_EQ(d.discard, "new");
  EXPECT_EQ(bus_spec<nats::bus_spec>(only<event_bus>(defaults)).max_payload, 1048576);
}

TEST(nats_bus_spec, jetstream_exotic_connects_to_its_url) {
  auto r = load(event_bus_yaml(R"(  jetstreamExotic:
    url: "nats://a:4222,nats://b:4222"
    accessSecret: {name: js, key: auth}
    tls: {caCertSecret: {name: tls, key: ca}}
    streamConfig: "retention: workqueue"
)"));
  const auto& b = only<event_bus>(r);
  ASSERT_TRUE(clean(r));
  EXPECT_EQ(b.spec.type, "jetstreamExotic");
  const auto& js = bus_spec<nats::bus_spec>(b);
  EXPECT_FALSE(js.managed);
  EXPECT_EQ(js.url, "nats://a:4222,nats://b:4222");
  EXPECT_EQ(js.access_secret->key, "auth");
  EXPECT_EQ(js.tls->ca_cert_secret->key, "ca");
  EXPECT_EQ(js.stream.retention, "workqueue");
}

TEST(nats_bus_spec, stream_config_errors_point_into_the_string) {
  const std::string yaml = event_bus_yaml(R"(  jetstream:
    version: latest
    maxPayload: lots
    streamConfig: |
      maxMsgs: many
      maxAge: forever
      retention: 7
      discard: newest
      replicas: 0
      maxBytes: -2
      storage: memory
)");
  auto r = load(yaml);
  const std::string at = "spec.jetstream.streamConfig";
  EXPECT_TRUE(has_diagnostic(r, "spec.jetstream.maxPayload", position_of(yaml, "maxPayload"),
                             "invalid maxPayload \"lots\""));
  EXPECT_TRUE(has_diagnostic(r, at + ".maxMsgs", position_of(yaml, "maxMsgs"),
                             "maxMsgs must be an integer, got \"many\""));
  EXPECT_TRUE(
    has_diagnostic(r, at + ".maxAge", position_of(yaml, "maxAge"), "invalid maxAge \"forever\""));
  EXPECT_TRUE(has_diagnostic(r, at + ".retention", position_of(yaml, "retention"),
                             "retention must be 0 (limits), 1 (interest), 2 (workqueue), "
                             "got \"7\""));
  EXPECT_TRUE(has_diagnostic(r, at + ".discard", position_of(yaml, "discard"),
                             "discard must be 0 (old), 1 (new), got \"newest\""));
  EXPECT_TRUE(has_diagnostic(r, at + ".replicas", position_of(yaml, "replicas: 0"),
                             "stream replicas must be 1 to 5, got 0"));
  EXPECT_TRUE(has_diagnostic(r, at + ".maxBytes", position_of(yaml, "maxBytes"),
                             "maxBytes must be -1 (no limit) or more"));
  EXPECT_TRUE(has_diagnostic(r, at + ".storage", position_of(yaml, "storage"),
                             "unknown field \"storage\"", severity::warning));
}

TEST(nats_bus_spec, stream_config_windows_and_yaml_syntax) {
  const std::string windows = event_bus_yaml("  jetstreamExotic:\n    url: \"nats://n\"\n"
                                             "    streamConfig: \"maxAge: 1m\\nduplicates: 5m\"\n");
  auto r = load(windows);
  EXPECT_TRUE(has_diagnostic(r, "spec.jetstreamExotic.streamConfig.duplicates",
                             position_of(windows, "streamConfig"),
                             "the duplicates window cannot be longer than maxAge"));
  const std::string broken = event_bus_yaml("  jetstreamExotic:\n    streamConfig: \"a: [\"\n");
  auto b = load(broken);
  EXPECT_TRUE(has_diagnostic(b, "spec.jetstreamExotic.url", position_of(broken, "jetstreamExotic"),
                             "url is required"));
  EXPECT_TRUE(has_diagnostic(b, "spec.jetstreamExotic.streamConfig",
                             position_of(broken, "streamConfig"),
                             "invalid YAML in streamConfig (its line 1)"));
  const std::string single = event_bus_yaml("  jetstreamExotic:\n    url: \"nats://n\"\n"
                                            "    streamConfig: \"replicas: 9\"\n");
  EXPECT_TRUE(has_diagnostic(load(single), "spec.jetstreamExotic.streamConfig.replicas",
                             position_of(single, "replicas"), "stream replicas must be 1 to 5"));
}
