#pragma once

#include <array>
#include <string>
#include <string_view>

#include <yaml-cpp/yaml.h>

#include "ganglion/dsl/model.hpp"
#include "ganglion/dsl/kind/load_context.hpp"

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

/// Reads an EventSource document (already checked against the schema).
event_source load_event_source(const YAML::Node& root, const load_context& cx);

/// Reads a Sensor document.
sensor load_sensor(const YAML::Node& root, const load_context& cx);

/// Reads one trigger (also a dlqTrigger) at `path`.
trigger load_trigger(const YAML::Node& node, const std::string& path, const load_context& cx);

/// Reads an EventBus document.
event_bus load_event_bus(const YAML::Node& root, const load_context& cx);

} // namespace ganglion::dsl::detail
