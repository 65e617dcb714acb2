#pragma once

// The typed argoproj.io/v1alpha1 model: EventSource, Sensor, EventBus.
// Field names follow the Argo API in snake_case; see docs/compatibility.md for what runs.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "ganglion/dsl/diagnostic.hpp"

namespace ganglion::dsl {

/// Kubernetes object metadata (the parts ganglion uses).
struct object_meta {
  std::string name;
  std::string namespace_;
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> annotations;
};

/// A reference to one key of a Kubernetes Secret (resolved from SECRETS_DIR/<name>/<key>).
struct secret_key_selector {
  std::string name;
  std::string key;
};

/// `filter.expression` of an event source event (expr language; runs before publishing).
struct event_source_filter {
  std::string expression;
};

/// `spec.webhook.<event>`: an HTTP endpoint (Argo's WebhookContext plus filter).
struct webhook_event {
  std::string endpoint;
  std::string method;
  std::string port;
  std::string url;
  std::optional<secret_key_selector> server_cert_secret;
  std::optional<secret_key_selector> server_key_secret;
  std::optional<secret_key_selector> auth_secret;
  std::int64_t max_payload_size = 1048576;
  std::map<std::string, std::string> metadata;
  std::optional<event_source_filter> filter;
};

/// `persistence` of a calendar event.
struct calendar_persistence {
  bool catchup_enabled = false;
  std::string catchup_max_duration;
  std::string config_map_name;
  bool config_map_create_if_not_exist = false;
};

/// `spec.calendar.<event>`: a cron schedule or a fixed interval.
struct calendar_event {
  std::string schedule;
  std::string interval;
  std::vector<std::string> exclusion_dates;
  std::string timezone;
  std::map<std::string, std::string> metadata;
  std::optional<calendar_persistence> persistence;
  std::optional<event_source_filter> filter;
};

/// An event of a source type that is recognised but not modelled yet ("not supported yet" at run).
struct unmodelled_event {
  std::string type; ///< the spec key, e.g. `kafka`
  std::string name; ///< the event name (map key)
  std::string json; ///< the event's spec as JSON text
};

/// The EventSource spec.
struct event_source_spec {
  std::string event_bus_name = "default";
  std::int32_t replicas = 1;
  std::map<std::string, webhook_event> webhook;
  std::map<std::string, calendar_event> calendar;
  std::vector<unmodelled_event> unmodelled;
};

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
};

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

/// Exponential backoff (`retryStrategy`, k8s policy backoff).
struct backoff {
  std::optional<std::int64_t> duration_ns; ///< int nanoseconds or a Go duration string
  std::optional<double> factor;
  std::optional<double> jitter;
  std::optional<std::int32_t> steps;
  /// *ganglion*: the longest single wait between attempts (Argo has no cap).
  std::optional<std::int64_t> max_duration_ns;
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

/// `basicAuth` of an HTTP trigger.
struct basic_auth {
  std::optional<secret_key_selector> username;
  std::optional<secret_key_selector> password;
};

/// `secureHeaders[]` of an HTTP trigger (value from a secret or a config map).
struct secure_header {
  std::string name;
  std::optional<secret_key_selector> secret;
  std::optional<secret_key_selector> config_map;
};

/// TLS client settings (`tls`).
struct tls_config {
  std::optional<secret_key_selector> ca_cert_secret;
  std::optional<secret_key_selector> client_cert_secret;
  std::optional<secret_key_selector> client_key_secret;
  bool insecure_skip_verify = false;
  bool enabled = false; ///< TLS with the system roots when no certificate is given
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

/// The Sensor spec.
struct sensor_spec {
  std::vector<event_dependency> dependencies;
  std::vector<trigger> triggers;
  std::string event_bus_name = "default";
  std::int32_t replicas = 1;
  bool error_on_failed_round = false;
  std::map<std::string, std::string> logging_fields;
};

/// The EventBus spec: which bus, with its settings as JSON text until the bus drivers land.
struct event_bus_spec {
  std::string type; ///< nats | jetstream | jetstreamExotic | kafka
  std::string json;
};

/// An EventSource document.
struct event_source {
  object_meta metadata;
  event_source_spec spec;
};

/// A Sensor document.
struct sensor {
  object_meta metadata;
  sensor_spec spec;
};

/// An EventBus document.
struct event_bus {
  object_meta metadata;
  event_bus_spec spec;
};

/// One YAML document of a manifest file.
struct document {
  source_location where; ///< the document's first line
  std::string api_version;
  std::string kind;
  std::string name;
  /// monostate for kinds ganglion does not run (Role, Pod …) and for documents that failed to load.
  std::variant<std::monostate, event_source, sensor, event_bus> body;
  /// YAML path → position of every node of the document, for diagnostics.
  std::map<std::string, source_location> locations;
  /// A digest (32 hex digits) of the canonical JSON of each part of the spec, compared by a
  /// hot reload to restart only what changed. EventSource: `event/<name>` per named event (with its type key), `eventsource`
  /// for the rest; Sensor: `dependency/<name>`, `trigger/<template.name>`, `sensor` for the
  /// rest; EventBus: `eventbus`.
  std::map<std::string, std::string> fingerprints;

  /// The position of `path`, or of its nearest ancestor that exists.
  source_location locate(const std::string& path) const;
};

} // namespace ganglion::dsl
