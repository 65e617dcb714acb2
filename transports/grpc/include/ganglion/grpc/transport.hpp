#pragma once

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "ganglion/core/command_options.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"

namespace ganglion::grpc {

/// Settings of the grpc transport (the same for every generic source and custom trigger).
struct options {
  /// PEM file of the CAs that verify a generic source's TLS server (`insecure: false`);
  /// empty: the system's CAs. `--grpc-ca-file`.
  std::string ca_file;
  /// Largest event payload a generic source publishes; a larger one is dropped and counted
  /// (`ganglion_events_rejected_total{reason="too_large"}`), the stream goes on.
  std::size_t max_payload_bytes = 1024 * 1024;
  /// Largest gRPC message a stream or a trigger server may send; a larger one ends the stream
  /// (the source reconnects) or fails the execution.
  std::size_t max_message_bytes = 4 * 1024 * 1024;
  /// How long one connection attempt may take (TCP, TLS, HTTP/2) before it counts as failed;
  /// a refused connection is tried again within it. With the backoff below, a service that is
  /// gone gives up after about 5 + 1 + 5 + 2 + 5 = 18 s.
  std::chrono::milliseconds connect_timeout{5000};
  /// Wait after the first failed attempt; it doubles up to `max_backoff`.
  std::chrono::milliseconds initial_backoff{1000};
  std::chrono::milliseconds max_backoff{10000};
  /// Consecutive failed attempts (no replica answering) after which the source gives up: phase
  /// `Error` until `POST /v1/sources/{eventsource}/{event}/restart` or a reload.
  int max_failed_attempts = 3;
  /// How often a DNS name is resolved again to find replicas added or gone.
  std::chrono::milliseconds resolve_interval{30000};
  /// Events of one source (all its replica streams together) offered to the bus and not yet
  /// answered; when the bus refuses, the streams are not read until it accepts again (gRPC's
  /// flow control then holds the service).
  std::size_t max_in_flight = 256;
  /// How long one custom trigger call (FetchResource, Execute, ApplyPolicy) may take.
  std::chrono::milliseconds call_timeout{30000};
};

/// The `generic` source: calls `Eventing.StartEventSource{name, config}` on every replica `url`
/// resolves to and publishes each event of each stream as a CloudEvent of type `generic` with
/// Argo's data `{"body":…,"metadata":{…}}`. `Pending` (`connecting to <url>`) until its first
/// stream opens (source_context::connected), `Running` after. Reconnects with backoff; after
/// `max_failed_attempts` consecutive failures with no replica answering it gives up (phase
/// `Error`). Throws core::source_error for a spec that cannot run (bad url, missing secret).
core::source_factory make_source_factory(options opts = {});

/// The generic source's check step: url and config given, url well-formed. Reads no secret,
/// connects to nothing.
std::vector<std::string> check_source(const core::source_context& ctx);

/// The `custom` trigger: per firing, FetchResource(YAML of `spec`), `custom.parameters` on the
/// fetched resource when it is JSON, Execute(resource, payload), ApplyPolicy(response). A
/// failed call fails the execution (retry, dead letter); ApplyPolicy's `success: false` is
/// logged, as Argo. Throws core::trigger_error for a configuration that cannot run.
core::trigger_factory make_trigger_factory(options opts = {});

/// The custom trigger's check step: serverURL well-formed, spec given, certSecret when secure.
/// Reads no secret, connects to nothing.
std::vector<std::string> check_trigger(const core::trigger_context& ctx);

/// Registers the `generic` source and the `custom` trigger.
void register_transport(core::source_registry& sources, core::trigger_registry& triggers,
                        options opts = {});

/// The command-line options of the grpc kinds: `run --grpc-ca-file PATH`.
core::command_options command_options();

/// `options` with what the command line gave those options (`ca_file`).
options options_from(const core::option_values& values);

} // namespace ganglion::grpc
