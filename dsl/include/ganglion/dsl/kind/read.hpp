#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ganglion/dsl/model.hpp"
#include "ganglion/dsl/kind/load_context.hpp"

// Readers from YAML into the model. They are lenient: check_schema has already reported every
// value of the wrong type, so a bad value reads as the field's default here.

namespace ganglion::dsl::detail {

/// The string at `key` (any scalar's text), or `fallback`.
std::string read_string(const YAML::Node& map, std::string_view key, std::string fallback = {});

/// The string at `key`, or nullopt when absent.
std::optional<std::string> read_optional_string(const YAML::Node& map, std::string_view key);

/// The boolean at `key`, or `fallback`.
bool read_bool(const YAML::Node& map, std::string_view key, bool fallback = false);

/// The integer at `key`, or `fallback`.
std::int64_t read_int(const YAML::Node& map, std::string_view key, std::int64_t fallback = 0);

/// The number at `key`, or nullopt.
std::optional<double> read_number(const YAML::Node& map, std::string_view key);

/// The string → string map at `key` (empty when absent).
std::map<std::string, std::string> read_string_map(const YAML::Node& map, std::string_view key);

/// The list of strings at `key` (empty when absent).
std::vector<std::string> read_string_list(const YAML::Node& map, std::string_view key);

/// A Kubernetes secret (or config map) key selector at `key`.
std::optional<secret_key_selector> read_key_selector(const YAML::Node& map, std::string_view key);

/// `metadata` of a Kubernetes object.
object_meta read_object_meta(const YAML::Node& metadata);

/// `filter` of an event source event.
std::optional<event_source_filter> read_source_filter(const YAML::Node& map);

/// `tls` (TLSConfig).
std::optional<tls_config> read_tls(const YAML::Node& map, std::string_view key);

/// `sasl` at `key` (mechanism "PLAIN" when empty, as Argo's GetMechanism).
std::optional<sasl_config> read_sasl(const YAML::Node& map, std::string_view key);

/// `consumerGroup` at `key`.
std::optional<kafka_consumer_group> read_consumer_group(const YAML::Node& map,
                                                        std::string_view key);

/// `secureHeaders[]` (SecureHeader list) at `key`.
std::vector<secure_header> read_secure_headers(const YAML::Node& map, std::string_view key);

/// A Backoff; a duration that is neither an integer nor a Go duration is reported at `path`.
backoff read_backoff(const YAML::Node& node, const std::string& path, const load_context& cx);

/// The list of trigger parameters at `key`.
std::vector<trigger_parameter> read_parameters(const YAML::Node& map, std::string_view key);

/// The node at `key` converted to JSON text with the schema type `type`.
std::string read_json(const YAML::Node& map, std::string_view key, std::string_view type);

} // namespace ganglion::dsl::detail
