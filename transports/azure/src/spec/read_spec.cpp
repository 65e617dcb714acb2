#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::azure::detail {

using namespace dsl::detail;

event_hubs_trigger_spec read_event_hubs_trigger(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  event_hubs_trigger_spec out;
  out.fqdn = read_string(node, "fqdn");
  out.hub_name = read_string(node, "hubName");
  out.shared_access_key_name = read_key_selector(node, "sharedAccessKeyName");
  out.shared_access_key = read_key_selector(node, "sharedAccessKey");
  return out;
}

service_bus_trigger_spec read_service_bus_trigger(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  service_bus_trigger_spec out;
  out.connection_string = read_key_selector(node, "connectionString");
  out.queue_name = read_string(node, "queueName");
  out.topic_name = read_string(node, "topicName");
  out.subscription_name = read_string(node, "subscriptionName");
  out.tls = read_tls(node, "tls");
  return out;
}

events_hub_source_spec read_events_hub_source(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  events_hub_source_spec out;
  out.fqdn = read_string(node, "fqdn");
  out.hub_name = read_string(node, "hubName");
  out.shared_access_key_name = read_key_selector(node, "sharedAccessKeyName");
  out.shared_access_key = read_key_selector(node, "sharedAccessKey");
  out.metadata = read_string_map(node, "metadata");
  return out;
}

service_bus_source_spec read_service_bus_source(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  service_bus_source_spec out;
  out.connection_string = read_key_selector(node, "connectionString");
  out.fully_qualified_namespace = read_string(node, "fullyQualifiedNamespace");
  out.queue_name = read_string(node, "queueName");
  out.topic_name = read_string(node, "topicName");
  out.subscription_name = read_string(node, "subscriptionName");
  out.tls = read_tls(node, "tls");
  out.json_body = read_bool(node, "jsonBody");
  out.defer_delete = read_bool(node, "deferDelete");
  out.metadata = read_string_map(node, "metadata");
  return out;
}

queue_storage_source_spec read_queue_storage_source(const dsl::spec_read_input& in) {
  const auto& node = in.node;
  queue_storage_source_spec out;
  out.storage_account_name = read_string(node, "storageAccountName");
  out.connection_string = read_key_selector(node, "connectionString");
  out.queue_name = read_string(node, "queueName");
  out.json_body = read_bool(node, "jsonBody");
  out.dlq = read_bool(node, "dlq");
  out.metadata = read_string_map(node, "metadata");
  out.decode_message = read_bool(node, "decodeMessage");
  if (!is_absent(child(node, "waitTimeInSeconds")))
    out.wait_time_in_seconds = read_int(node, "waitTimeInSeconds");
  return out;
}

} // namespace ganglion::azure::detail
