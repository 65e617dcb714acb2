#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ganglion/dsl/model.hpp"
#include "load/load_context.hpp"

// Readers for the message transports (Kafka, NATS, JetStream) of sources, triggers and buses.
// `path` is the YAML path of `node`; readers report only what the model cannot hold (a value
// inside an embedded YAML string, a setting ganglion drops), the rest is validate_*'s job.

namespace ganglion::dsl::detail {

/// `sasl` at `key` (mechanism "PLAIN" when empty, as Argo's GetMechanism).
std::optional<sasl_config> read_sasl(const YAML::Node& map, std::string_view key);

/// `consumerGroup` at `key`.
std::optional<kafka_consumer_group> read_consumer_group(const YAML::Node& map,
                                                        std::string_view key);

/// `auth` (NATSAuth) at `key`.
std::optional<nats_auth> read_nats_auth(const YAML::Node& map, std::string_view key);

/// `secureHeaders[]` (SecureHeader list) at `key`.
std::vector<secure_header> read_secure_headers(const YAML::Node& map, std::string_view key);

/// `spec.kafka.<event>`.
kafka_event read_kafka_event(const YAML::Node& node, const std::string& path,
                             const load_context& cx);

/// `spec.nats.<event>`.
nats_event read_nats_event(const YAML::Node& node);

/// `template.kafka`.
kafka_trigger read_kafka_trigger(const YAML::Node& node, const std::string& path,
                                 const load_context& cx);

/// `template.nats`.
nats_trigger read_nats_trigger(const YAML::Node& node);

/// The `config` string of a Kafka event source (Argo: sarama settings as YAML): its top-level
/// `key: value` lines that name a librdkafka property ganglion passes on; every other key is
/// reported as ignored (a warning).
std::map<std::string, std::string> read_kafka_config(const YAML::Node& node,
                                                     const std::string& path,
                                                     const load_context& cx);

/// The `streamConfig` YAML string of a JetStream bus, over ganglion's defaults; values that
/// do not parse are reported at their line.
jetstream_stream_settings read_stream_config(const YAML::Node& node, const std::string& path,
                                             const load_context& cx);

/// A nats-server size (`maxPayload`): an integer with an optional k/kb/m/mb/g/gb suffix
/// (k = 1000, kb = 1024, any case); nullopt when it does not parse.
std::optional<std::int64_t> parse_nats_size(std::string_view text);

} // namespace ganglion::dsl::detail
