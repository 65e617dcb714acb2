#pragma once

#include "ganglion/azure/spec.hpp"
#include "ganglion/dsl/kind/spec_input.hpp"

// The Azure kinds' readers (YAML → model) and rules (Argo's validate.go of the sources; what
// Argo's triggers need to run, which Argo checks only when they run).

namespace ganglion::azure::detail {

/// Reads `template.azureEventHubs`.
event_hubs_trigger_spec read_event_hubs_trigger(const dsl::spec_read_input& in);

/// Reads `template.azureServiceBus`.
service_bus_trigger_spec read_service_bus_trigger(const dsl::spec_read_input& in);

/// Reads `spec.azureEventsHub.<event>`.
events_hub_source_spec read_events_hub_source(const dsl::spec_read_input& in);

/// Reads `spec.azureServiceBus.<event>`.
service_bus_source_spec read_service_bus_source(const dsl::spec_read_input& in);

/// Reads `spec.azureQueueStorage.<event>`.
queue_storage_source_spec read_queue_storage_source(const dsl::spec_read_input& in);

/// fqdn, hubName, both shared-access secrets, payload and parameters of `template.azureEventHubs`.
void check_event_hubs_trigger(const event_hubs_trigger_spec& spec, const dsl::spec_check_input& in);

/// connectionString, queueName or topicName, tls, payload and parameters of
/// `template.azureServiceBus`.
void check_service_bus_trigger(const service_bus_trigger_spec& spec,
                               const dsl::spec_check_input& in);

/// Argo's azureeventshub validate.go.
void check_events_hub_source(const events_hub_source_spec& spec, const dsl::spec_check_input& in);

/// Argo's azureservicebus validate.go, and tls.
void check_service_bus_source(const service_bus_source_spec& spec, const dsl::spec_check_input& in);

/// Argo's azurequeuestorage validate.go, the secret, and a warning for a wait of 0 or less.
void check_queue_storage_source(const queue_storage_source_spec& spec,
                                const dsl::spec_check_input& in);

} // namespace ganglion::azure::detail
