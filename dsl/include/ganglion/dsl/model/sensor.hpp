#pragma once

// The Sensor model: dependencies with their filters and transforms, and the triggers.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/model/common.hpp"
#include "ganglion/dsl/model/trigger.hpp"

namespace ganglion::dsl {

struct precompiled_filters;

/// A data filter (`filters.data[]`).
struct data_filter {
  std::string path;
  std::string type; ///< bool | number | string
  std::vector<std::string> value;
  std::string comparator; ///< >= > = != < <= or empty
  std::string template_;
};

/// A named gjson field bound into an expr filter.
struct expr_field {
  std::string path;
  std::string name;
};

/// An expr filter (`filters.exprs[]`).
struct expr_filter {
  std::string expr;
  std::vector<expr_field> fields;
};

/// A time-of-day window filter.
struct time_filter {
  std::string start;
  std::string stop;
  std::string timezone;
};

/// The CloudEvent context fields (used by context filters).
struct event_context {
  std::string id;
  std::string source;
  std::string specversion;
  std::string type;
  std::string datacontenttype;
  std::string subject;
  std::string time;
};

/// `dependencies[].filters`.
struct dependency_filter {
  std::optional<time_filter> time;
  std::optional<event_context> context;
  std::vector<data_filter> data;
  std::vector<expr_filter> exprs;
  std::string data_logical_operator;
  std::string expr_logical_operator;
  std::string script;
};

/// `dependencies[].transform`.
struct dependency_transform {
  std::string jq;
  std::string script;
};

/// A sensor dependency.
struct event_dependency {
  std::string name;
  std::string event_source_name;
  std::string event_name;
  std::optional<dependency_filter> filters;
  std::optional<dependency_transform> transform;
  std::string filters_logical_operator;
  /// Its data and expr filters as the loader compiled them (null when the sensor was built
  /// another way, or they did not compile): the sensor shares them instead of compiling again.
  std::shared_ptr<const precompiled_filters> precompiled;
};

/// The Sensor spec.
struct sensor_spec {
  std::vector<event_dependency> dependencies;
  std::vector<trigger> triggers;
  std::string event_bus_name = "default";
  std::int32_t replicas = 1;
  /// `template.serviceAccountName`: the identity the Sensor's Kubernetes calls use in cluster
  /// mode (empty: its namespace's `default`).
  std::string service_account_name;
  bool error_on_failed_round = false;
  std::map<std::string, std::string> logging_fields;
};

/// A Sensor document.
struct sensor {
  object_meta metadata;
  sensor_spec spec;
};

} // namespace ganglion::dsl
