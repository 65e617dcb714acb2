#pragma once

// The trigger model: `triggers[]` of a Sensor, its template, parameters and policies.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/model/common.hpp"

namespace ganglion::dsl {

/// Where a parameter takes its value from.
struct trigger_parameter_source {
  std::string dependency_name;
  std::string context_key;
  std::string context_template;
  std::string data_key;
  std::string data_template;
  std::optional<std::string> value;
  bool use_raw_data = false;
};

/// A trigger parameter (`parameters[]` or `payload[]`).
struct trigger_parameter {
  trigger_parameter_source src;
  std::string dest;
  std::string operation; ///< overwrite (or empty) | append | prepend
};

/// `policy.status`.
struct status_policy {
  std::vector<std::int32_t> allow;
};

/// `policy.k8s`.
struct k8s_resource_policy {
  std::map<std::string, std::string> labels;
  std::optional<backoff> backoff_;
  bool error_on_backoff_timeout = false;
};

/// `policy`.
struct trigger_policy {
  std::optional<k8s_resource_policy> k8s;
  std::optional<status_policy> status;
};

/// `rateLimit`.
struct rate_limit {
  std::string unit = "Second"; ///< Second | Minute | Hour
  std::int32_t requests_per_unit = 0;
};

/// `template.kafka`: produce a message per firing.
struct kafka_trigger {
  std::string url;
  std::string topic;
  std::optional<std::int32_t> partition; ///< deprecated in Argo; honoured when set
  std::string partitioning_key;          ///< the message key (empty: no key)
  /// 1 (the leader) | -1 (all in-sync replicas). Argo's producer reads absent and 0 as -1
  /// (sarama.WaitForAll), whatever its API comment says; so does ganglion.
  std::int32_t required_acks = -1;
  bool compress = false;                 ///< snappy
  std::int32_t flush_frequency_ms = 500; ///< Argo's batching; ganglion sends at once (linger 5 ms)
  std::string version;
  std::optional<tls_config> tls;
  std::optional<sasl_config> sasl;
  std::map<std::string, std::string> headers;
  std::vector<secure_header> secure_headers;
  std::vector<trigger_parameter> payload;
  std::vector<trigger_parameter> parameters;
};

/// `template.nats`: publish a message per firing.
struct nats_trigger {
  std::string url;
  std::string subject;
  std::vector<trigger_parameter> payload;
  std::vector<trigger_parameter> parameters;
  std::optional<tls_config> tls;
  std::optional<nats_auth> auth;
};

/// `template.http`.
struct http_trigger {
  std::string url;
  std::string method = "POST";
  std::vector<trigger_parameter> payload;
  std::vector<trigger_parameter> parameters;
  std::map<std::string, std::string> headers;
  std::vector<secure_header> secure_headers;
  std::optional<basic_auth> basic_auth_;
  std::optional<tls_config> tls;
  std::int64_t timeout_seconds = 60;
  /// `dynamicHeaders`: parameters whose `dest` names a header.
  std::vector<trigger_parameter> dynamic_headers;
  /// `host`: the Host header to send (virtual hosting).
  std::string host;
};

/// `template.log`.
struct log_trigger {
  std::uint64_t interval_seconds = 0;
};

/// A trigger action type that is recognised but not executed yet (k8s, argoWorkflow, kafka …).
struct unmodelled_trigger {
  std::string type; ///< the template key, e.g. `k8s`
  std::string json; ///< its spec as JSON text
};

/// `conditionsReset[]`.
struct conditions_reset {
  std::string cron;
  std::string timezone;
};

/// `triggers[].template`.
struct trigger_template {
  std::string name;
  std::string conditions;
  std::vector<conditions_reset> conditions_reset_;
  std::optional<http_trigger> http;
  std::optional<log_trigger> log;
  std::optional<kafka_trigger> kafka;
  std::optional<nats_trigger> nats;
  std::vector<unmodelled_trigger> unmodelled;
  /// The action keys present, in manifest order (exactly one is valid).
  std::vector<std::string> action_types;
  /// The whole template (name, conditions, the action …) as JSON text, for template parameters.
  std::string json;
};

/// `triggers[]` (also the shape of `dlqTrigger`).
struct trigger {
  trigger_template template_;
  std::vector<trigger_parameter> parameters;
  std::optional<trigger_policy> policy;
  std::optional<backoff> retry_strategy;
  std::optional<rate_limit> rate_limit_;
  bool at_least_once = false;
  std::shared_ptr<trigger> dlq_trigger;
};

} // namespace ganglion::dsl
