#pragma once

#include <map>
#include <string>

#include "ganglion/dsl/kind/spec_input.hpp"
#include "ganglion/kafka/spec.hpp"

// The kafka kind's readers (YAML → model) and rules (Argo's kafka validate.go plus ganglion's).

namespace ganglion::kafka::detail {

/// Reads `spec.kafka.<event>`.
event_spec read_event(const dsl::spec_read_input& in);

/// Reads `template.kafka`.
trigger_spec read_trigger(const dsl::spec_read_input& in);

/// The `config` string of a Kafka event source (Argo: sarama settings as YAML): its top-level
/// `key: value` lines that name a librdkafka property ganglion passes on; every other key is
/// reported as ignored (a warning).
std::map<std::string, std::string> read_config(const YAML::Node& node, const std::string& path,
                                               const dsl::detail::load_context& cx);

/// Reads an EventBus `spec.kafka` (its topic defaults to `<namespace>-<name>` of
/// `in.metadata`).
bus_spec read_bus(const dsl::spec_read_input& in);

/// Argo's rules for `spec.kafka.<event>`.
void check_event(const event_spec& spec, const dsl::spec_check_input& in);

/// Argo's validateKafkaTrigger plus ganglion's rules for `template.kafka`.
void check_trigger(const trigger_spec& spec, const dsl::spec_check_input& in);

/// Argo's rules for an EventBus `spec.kafka`, and the fields ganglion ignores.
void check_bus(const bus_spec& spec, const dsl::spec_check_input& in);

} // namespace ganglion::kafka::detail
