#pragma once

// The trigger model: `triggers[]` of a Sensor, its template, parameters and policies.

#include <any>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/model/common.hpp"

namespace ganglion::dsl {

class condition;

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

/// `template.<type>`: the action of a trigger (`http`, `kafka`, `k8s` …).
struct trigger_action {
  std::string type; ///< the template key, e.g. `http`
  std::string json; ///< its spec as JSON text
  /// `<type>.parameters[]`, which the core applies to every kind.
  std::vector<trigger_parameter> parameters;
  /// `<type>.payload[]`, which the core turns into the payload for every kind.
  std::vector<trigger_parameter> payload;
  /// The kind's own model, from its spec step (dsl::kind_spec); empty for a type this program
  /// does not run.
  std::any spec;
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
  /// `conditions` as the loader compiled them (null when empty or invalid): the sensor shares
  /// them instead of parsing them again.
  std::shared_ptr<const condition> compiled_conditions;
  std::vector<conditions_reset> conditions_reset_;
  /// The actions present, in manifest order (exactly one is valid).
  std::vector<trigger_action> actions;
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
