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

/// `sasl` of a Kafka client.
struct sasl_config {
  std::string mechanism = "PLAIN"; ///< PLAIN | SCRAM-SHA-256 | SCRAM-SHA-512 (others refused)
  std::optional<secret_key_selector> user_secret;
  std::optional<secret_key_selector> password_secret;
};

/// `auth` of a NATS client (one of them).
struct nats_auth {
  std::optional<basic_auth> basic;
  std::optional<secret_key_selector> token;
  std::optional<secret_key_selector> nkey;       ///< an nkey seed
  std::optional<secret_key_selector> credential; ///< a `.creds` file (JWT + seed)
};

/// `consumerGroup` of a Kafka event source.
struct kafka_consumer_group {
  std::string group_name;
  bool oldest = false;             ///< start at the oldest offset when the group has none
  std::string rebalance_strategy;  ///< sticky | roundrobin | range (empty: range)
};

/// `spec.kafka.<event>`: a topic read through a consumer group or from one partition.
struct kafka_event {
  std::string url;       ///< comma-separated bootstrap brokers
  std::string topic;
  std::string partition; ///< single-partition mode (no consumerGroup)
  std::optional<kafka_consumer_group> consumer_group;
  std::int64_t limit_events_per_second = 0; ///< 0: no limit
  std::string version;
  std::optional<tls_config> tls;
  std::optional<sasl_config> sasl;
  bool json_body = false; ///< the body is JSON (else base64 of the bytes, as Go marshals []byte)
  std::map<std::string, std::string> config; ///< extra librdkafka properties (ganglion)
  std::map<std::string, std::string> metadata;
  std::optional<event_source_filter> filter;
};

/// `spec.nats.<event>`: a core NATS subject, optionally in a queue group.
struct nats_event {
  std::string url;
  std::string subject;
  std::string queue;
  bool json_body = false;
  std::optional<tls_config> tls;
  std::optional<nats_auth> auth;
  std::map<std::string, std::string> metadata;
  std::optional<event_source_filter> filter;
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

/// The Sensor spec.
struct sensor_spec {
  std::vector<event_dependency> dependencies;
  std::vector<trigger> triggers;
  std::string event_bus_name = "default";
  std::int32_t replicas = 1;
  bool error_on_failed_round = false;
  std::map<std::string, std::string> logging_fields;
};

/// The settings of the JetStream stream that carries the events (`streamConfig`; ganglion's
/// defaults differ from Argo's where Argo's can lose accepted events, see docs/buses.md).
struct jetstream_stream_settings {
  std::int32_t replicas = 1;
  std::int64_t max_msgs = -1;
  std::int64_t max_age_ns = 168ll * 3600 * 1000000000; ///< 168h
  std::int64_t max_bytes = -1;
  std::int64_t duplicates_ns = 300ll * 1000000000; ///< the Nats-Msg-Id dedup window, 300s
  std::string retention = "limits";                ///< limits | interest | workqueue
  std::string discard = "new";                     ///< new (refuse when full) | old
};

/// `spec.jetstream` / `spec.jetstreamExotic`: a NATS JetStream bus.
struct jetstream_bus {
  /// Server URL(s), comma-separated. `spec.jetstream` (a cluster Argo's controller would
  /// deploy) has none: the `--bus-url` flag gives it.
  std::string url;
  /// `accessSecret`: `username`/`password` (YAML, as Argo writes it) or a bare token.
  std::optional<secret_key_selector> access_secret;
  std::optional<tls_config> tls;
  jetstream_stream_settings stream;
  std::string stream_name = "default"; ///< Argo's stream name; subjects `<stream>.<source>.<event>`
  std::int64_t max_payload = 1048576;
};

/// `spec.kafka`: a Kafka bus.
struct kafka_bus {
  std::string url;   ///< comma-separated bootstrap brokers
  std::string topic; ///< default `<namespace>-<eventbus name>` (`argo-events-default`)
  std::string version;
  std::optional<tls_config> tls;
  std::optional<sasl_config> sasl;
  std::optional<kafka_consumer_group> consumer_group;
};

/// The EventBus spec: which bus, and its settings.
struct event_bus_spec {
  std::string type; ///< nats | jetstream | jetstreamExotic | kafka
  std::string json; ///< the bus's spec as JSON text
  std::optional<jetstream_bus> jetstream; ///< jetstream and jetstreamExotic
  std::optional<kafka_bus> kafka;
};

/// The EventSource spec.
struct event_source_spec {
  std::string event_bus_name = "default";
  std::int32_t replicas = 1;
  std::map<std::string, webhook_event> webhook;
  std::map<std::string, calendar_event> calendar;
  std::map<std::string, kafka_event> kafka;
  std::map<std::string, nats_event> nats;
  std::vector<unmodelled_event> unmodelled;
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
  /// Every Secret key the document references (each `SecretKeySelector` of Argo's schema, in
  /// modelled and unmodelled parts alike), with its YAML path.
  std::vector<std::pair<std::string, secret_key_selector>> secret_refs;

  /// The position of `path`, or of its nearest ancestor that exists.
  source_location locate(const std::string& path) const;
};

} // namespace ganglion::dsl
