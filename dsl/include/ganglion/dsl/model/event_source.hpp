#pragma once

// The EventSource model: `spec.<type>.<event>` for each source type.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/model/common.hpp"

namespace ganglion::dsl {

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

} // namespace ganglion::dsl
