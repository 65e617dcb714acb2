#pragma once

#include <map>
#include <string>

#include "ganglion/dsl/model.hpp"
#include "load/load_context.hpp"

namespace ganglion::dsl::detail {

/// Argo's validate.go of the event's source type (amqp, github …) on its JSON spec,
/// the event being at `path` (`spec.<type>.<name>`).
void validate_unmodelled_source(const unmodelled_event& event, const std::string& path,
                                const load_context& cx);

/// Argo's kafka/validate.go plus ganglion's rules, for `spec.kafka`.
void validate_kafka_events(const std::map<std::string, kafka_event>& events,
                           const load_context& cx);

/// Argo's nats/validate.go plus ganglion's rules, for `spec.nats`.
void validate_nats_events(const std::map<std::string, nats_event>& events,
                          const load_context& cx);

} // namespace ganglion::dsl::detail
