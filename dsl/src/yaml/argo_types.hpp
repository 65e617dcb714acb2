#pragma once

// Argo's tables of event source types and trigger actions: read by the loader, checked by the
// trigger rules.

#include <array>
#include <string_view>

namespace ganglion::dsl::detail {

/// The 32 event source types of Argo (EventSourceSpec map keys).
inline constexpr std::array<std::string_view, 32> event_source_types{
  "minio",     "calendar",        "file",           "resource",          "webhook",
  "amqp",      "kafka",           "mqtt",           "nats",              "sns",
  "sqs",       "pubSub",          "github",         "gitlab",            "hdfs",
  "slack",     "storageGrid",     "azureEventsHub", "stripe",            "emitter",
  "redis",     "nsq",             "pulsar",         "generic",           "bitbucketserver",
  "bitbucket", "redisStream",     "azureServiceBus", "azureQueueStorage", "sftp",
  "gerrit",    "mns"};

/// The trigger action keys of TriggerTemplate, in Argo's dispatch order (trigger.go GetTrigger).
inline constexpr std::array<std::string_view, 14> trigger_action_types{
  "k8s",   "argoWorkflow", "http", "awsLambda",      "custom", "kafka",           "nats",
  "slack", "openWhisk",    "log",  "azureEventHubs", "pulsar", "azureServiceBus", "email"};

} // namespace ganglion::dsl::detail
