#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "spec/spec_steps.hpp"

namespace ganglion::azure::detail {

using namespace dsl::detail;

namespace {

/// A secret that must be given (Argo fails at run time without it).
void require_secret(const std::optional<dsl::secret_key_selector>& secret, const std::string& path,
                    std::string_view what, const load_context& cx) {
  if (!secret)
    cx.error(path, std::string{what} + " is required");
  check_secret(secret, path, cx);
}

/// Argo's rule on an Event Hub's shared-access pair: both or neither.
void check_shared_access(const std::optional<dsl::secret_key_selector>& name,
                         const std::optional<dsl::secret_key_selector>& key,
                         const std::string& path, const load_context& cx) {
  if (name.has_value() != key.has_value())
    cx.error(child_path(path, name ? "sharedAccessKey" : "sharedAccessKeyName"),
             "SharedAccessKey or SharedAccessKeyName is not specified. If one is set then both "
             "must be set");
  check_secret(name, child_path(path, "sharedAccessKeyName"), cx);
  check_secret(key, child_path(path, "sharedAccessKey"), cx);
}

} // namespace

void check_event_hubs_trigger(const event_hubs_trigger_spec& spec,
                              const dsl::spec_check_input& in) {
  const auto& path = in.path;
  const auto& cx = in.cx;
  require(spec.fqdn, child_path(path, "fqdn"), "fqdn", cx);
  require(spec.hub_name, child_path(path, "hubName"), "hubName", cx);
  require_secret(spec.shared_access_key_name, child_path(path, "sharedAccessKeyName"),
                 "sharedAccessKeyName", cx);
  require_secret(spec.shared_access_key, child_path(path, "sharedAccessKey"), "sharedAccessKey",
                 cx);
  require_payload(in.action->payload, path, "azureEventHubs", *in.scope, cx);
  validate_parameters(in.action->parameters, child_path(path, "parameters"), false, *in.scope, cx,
                      "azureEventHubs.parameters");
}

void check_service_bus_trigger(const service_bus_trigger_spec& spec,
                               const dsl::spec_check_input& in) {
  const auto& path = in.path;
  const auto& cx = in.cx;
  require_secret(spec.connection_string, child_path(path, "connectionString"), "connectionString",
                 cx);
  if (spec.queue_name.empty() && spec.topic_name.empty())
    cx.error(path, "neither queue name nor topic name is specified");
  else if (!spec.queue_name.empty() && !spec.topic_name.empty())
    cx.warning(child_path(path, "topicName"),
               "ignored: the message goes to queueName when both are given, as in Argo");
  check_tls(spec.tls, child_path(path, "tls"), cx);
  require_payload(in.action->payload, path, "azureServiceBus", *in.scope, cx);
  validate_parameters(in.action->parameters, child_path(path, "parameters"), false, *in.scope, cx,
                      "azureServiceBus.parameters");
}

void check_events_hub_source(const events_hub_source_spec& spec, const dsl::spec_check_input& in) {
  const auto& path = in.path;
  const auto& cx = in.cx;
  if (spec.fqdn.empty())
    cx.error(child_path(path, "fqdn"), "FQDN is not specified");
  if (spec.hub_name.empty())
    cx.error(child_path(path, "hubName"), "hub name/path is not specified");
  check_shared_access(spec.shared_access_key_name, spec.shared_access_key, path, cx);
}

void check_service_bus_source(const service_bus_source_spec& spec,
                              const dsl::spec_check_input& in) {
  const auto& path = in.path;
  const auto& cx = in.cx;
  const auto& queue = spec.queue_name;
  const auto& topic = spec.topic_name;
  const auto& subscription = spec.subscription_name;
  if (!spec.connection_string && spec.fully_qualified_namespace.empty())
    cx.error(path, "ConnectionString or fullyQualifiedNamespace must be specified");
  if (queue.empty() && (topic.empty() || subscription.empty()))
    cx.error(path, "QueueName or TopicName/SubscriptionName must be specified");
  if (!queue.empty() && (!topic.empty() || !subscription.empty()))
    cx.error(child_path(path, "queueName"),
             "QueueName and TopicName/SubscriptionName cannot be specified at the same time");
  if (topic.empty() && !subscription.empty())
    cx.error(child_path(path, "topicName"),
             "TopicName must be specified when SubscriptionName is specified");
  if (!topic.empty() && subscription.empty())
    cx.error(child_path(path, "subscriptionName"),
             "SubscriptionName must be specified when TopicName is specified");
  check_secret(spec.connection_string, child_path(path, "connectionString"), cx);
  check_tls(spec.tls, child_path(path, "tls"), cx);
}

void check_queue_storage_source(const queue_storage_source_spec& spec,
                                const dsl::spec_check_input& in) {
  const auto& path = in.path;
  const auto& cx = in.cx;
  if (!spec.connection_string && spec.storage_account_name.empty())
    cx.error(path, "must specify connection string or storageAccountName");
  if (spec.queue_name.empty())
    cx.error(child_path(path, "queueName"), "must specify queue name");
  check_secret(spec.connection_string, child_path(path, "connectionString"), cx);
  if (spec.connection_string && !spec.storage_account_name.empty())
    cx.warning(child_path(path, "storageAccountName"),
               "ignored: the connection string names the account, as in Argo");
  // *ganglion*: Argo then asks the queue again at once after each empty receive, a busy loop of
  // requests; ganglion waits at least 100 ms.
  if (spec.wait_time_in_seconds && *spec.wait_time_in_seconds <= 0)
    cx.warning(child_path(path, "waitTimeInSeconds"),
               "no pause between empty receives (Argo asks the queue again at once; ganglion "
               "waits 100 ms)");
}

} // namespace ganglion::azure::detail
