#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"

// The model of the Azure kinds: Argo's AzureEventHubsTrigger, AzureServiceBusTrigger,
// AzureEventsHubEventSource, AzureServiceBusEventSource and AzureQueueStorageEventSource
// (sensor_types.go, eventsource_types.go), less `filter`, `parameters[]` and `payload[]`, which dsl reads for
// every kind.

namespace ganglion::azure {

/// `template.azureEventHubs`: sends the payload to an Event Hub.
struct event_hubs_trigger_spec {
  /// The namespace's host, `<namespace>.servicebus.windows.net`.
  std::string fqdn;
  std::string hub_name;
  std::optional<dsl::secret_key_selector> shared_access_key_name;
  std::optional<dsl::secret_key_selector> shared_access_key;
};

/// `template.azureServiceBus`: sends the payload to a Service Bus queue or topic.
struct service_bus_trigger_spec {
  /// Secret holding `Endpoint=sb://…;SharedAccessKeyName=…;SharedAccessKey=…`.
  std::optional<dsl::secret_key_selector> connection_string;
  std::string queue_name;
  std::string topic_name;
  /// Read by Argo's type, used by neither Argo's trigger nor ganglion's.
  std::string subscription_name;
  std::optional<dsl::tls_config> tls;
};

/// `spec.azureEventsHub.<event>`: modelled and checked, not run (docs/compatibility.md).
struct events_hub_source_spec {
  std::string fqdn;
  std::string hub_name;
  std::optional<dsl::secret_key_selector> shared_access_key_name;
  std::optional<dsl::secret_key_selector> shared_access_key;
  std::map<std::string, std::string> metadata;
};

/// `spec.azureServiceBus.<event>`: modelled and checked, not run (docs/compatibility.md).
struct service_bus_source_spec {
  std::optional<dsl::secret_key_selector> connection_string;
  std::string fully_qualified_namespace;
  std::string queue_name;
  std::string topic_name;
  std::string subscription_name;
  std::optional<dsl::tls_config> tls;
  bool json_body = false;
  bool defer_delete = false;
  std::map<std::string, std::string> metadata;
};

/// `spec.azureQueueStorage.<event>`: polls a Storage queue (run).
struct queue_storage_source_spec {
  /// The account Argo reaches through Azure AD when there is no connection string (not run).
  std::string storage_account_name;
  /// Secret holding `DefaultEndpointsProtocol=…;AccountName=…;AccountKey=…` (or
  /// `QueueEndpoint=…`, `SharedAccessSignature=…`, `UseDevelopmentStorage=true`).
  std::optional<dsl::secret_key_selector> connection_string;
  std::string queue_name;
  bool json_body = false;
  /// A message that cannot be made an event (base64, JSON) stays in the queue.
  bool dlq = false;
  std::map<std::string, std::string> metadata;
  /// The message text is base64 (URL alphabet, else standard) and is decoded first.
  bool decode_message = false;
  /// `waitTimeInSeconds`: the pause after an empty receive; absent: Argo's 3.
  std::optional<std::int64_t> wait_time_in_seconds;

  /// The pause after an empty receive, in seconds (Argo's 3 when absent).
  std::int64_t wait_seconds() const { return wait_time_in_seconds.value_or(3); }
};

/// The spec step of `template.azureEventHubs`.
dsl::kind_spec event_hubs_trigger_spec_step();

/// The spec step of `template.azureServiceBus`.
dsl::kind_spec service_bus_trigger_spec_step();

/// The spec step of `spec.azureEventsHub.<event>`.
dsl::kind_spec events_hub_source_spec_step();

/// The spec step of `spec.azureServiceBus.<event>`.
dsl::kind_spec service_bus_source_spec_step();

/// The spec step of `spec.azureQueueStorage.<event>`.
dsl::kind_spec queue_storage_source_spec_step();

} // namespace ganglion::azure
