#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ganglion/core/command_options.hpp"

namespace ganglion::app {

/// Options of `ganglion run`.
struct run_options {
  std::vector<std::string> files;
  bool no_watch = false;       ///< do not reload when the manifest files change
  std::string admin;           ///< HOST:PORT of the admin endpoints; empty: none
  /// `--admin-host NAME` (repeatable): more DNS names the admin server answers to in `Host`
  /// (`*.suffix` for every name under suffix).
  std::vector<std::string> admin_hosts;
  /// `--admin-token-file PATH`: the admin API (all but /health and /ready) asks for
  /// `Authorization: Bearer <its content>`; empty: no token.
  std::string admin_token_file;
  std::string secrets_dir;
  std::string kubeconfig; ///< `--kubeconfig PATH`: the Kubernetes API the k8s kinds use
  /// `--object-identity impersonate|namespace|engine`: whose rights objects' Kubernetes calls
  /// use; empty: `impersonate` in cluster mode when allowed (else `namespace`), else `engine`.
  std::string object_identity;
  /// The options the kinds declare (`--grpc-ca-file`, `--bus-property` …), as given.
  core::option_values kind_options;
  /// `--from-cluster`: also run the EventSources, Sensors and EventBus of the cluster.
  bool from_cluster = false;
  /// `--namespace NS` (repeatable): the namespaces cluster mode watches; none: the
  /// kubeconfig context's (or the service account's).
  std::vector<std::string> namespaces;
  bool all_namespaces = false; ///< `--all-namespaces`: every namespace
  std::string data_dir = "ganglion-data";
  bool in_memory = false;
  std::string fsync = "interval";
  std::string fsync_interval = "100ms";
  std::uint64_t segment_mb = 64;
  std::uint64_t retention_mb = 1024;
  std::string retention_age = "24h";
  std::string webhook_host = "0.0.0.0";
  /// `--listen [HOST]:PORT` or `$PORT`: every webhook, /health and /ready on that one port;
  /// empty: each webhook on the port its manifest names.
  std::string listen;
  std::size_t bus_capacity = 65536;
  std::size_t bus_capacity_mib = 1024;
  double shutdown_grace_seconds = 10;
  double dedup_window_seconds = 300;
  /// Time one run of a sensor's jq or Lua script may take (Go duration).
  std::string script_budget = "100ms";
  std::size_t scheduler_threads = 0; ///< actor scheduler threads; 0: cores − 1, at least 1
  std::size_t io_threads = 2;        ///< HTTP server threads (webhooks, admin)
  /// This replica's id on a remote bus; empty: `<hostname>-<pid>-<random>`.
  std::string replica_id;
  /// Server URL of a `spec.jetstream` EventBus (which names none); overrides nothing else.
  std::string bus_url;
  /// How long a dead replica's sensors and active-passive sources wait before another replica
  /// takes them over (remote bus).
  std::string lease_ttl = "5s";
};

/// Options of `ganglion validate`.
struct validate_options {
  std::vector<std::string> files;
  /// Unknown fields, and objects `run` will not run, are errors.
  bool strict = false;
  /// Where `run` will read secrets; empty: every referenced secret is reported.
  std::string secrets_dir;
  std::string kubeconfig; ///< `--kubeconfig PATH`, as `run` will get it
  /// `--object-identity`, as `run` will get it: `namespace` reports the objects that leave
  /// their namespace; empty: `engine`.
  std::string object_identity;
  /// `--listen`, as `run` will get it: an endpoint two webhooks serve is an error.
  std::string listen;
  core::option_values kind_options; ///< the options the kinds declare, as `run` will get them
};

/// Options of `ganglion test`.
struct test_options {
  std::vector<std::string> files;
  std::vector<std::string> events; ///< CloudEvent JSON files, in order
  std::string body;                ///< a request body file, made into a webhook's event
  std::string source;              ///< the EventSource name of `body`'s event
  std::string subject;             ///< the event name of `body`'s event
  std::vector<std::string> headers; ///< `Name: value` request headers of `body`
  std::string secrets_dir;
  std::string kubeconfig; ///< `--kubeconfig PATH`, as `run` would get it
  core::option_values kind_options; ///< the options the kinds declare, as `run` would get them
};

/// Dry-runs every sensor against the events in order (the `--event` files, or the `--body`
/// event) and prints each dependency's verdict, the triggers that would fire and what they
/// would send; returns 0, 1 for unreadable input, 3 when a trigger that would fire cannot run.
int test_command(const test_options& options);

/// Runs manifests until SIGINT/SIGTERM, reloading them on SIGHUP, POST /v1/reload and file
/// changes; returns the exit code.
int run_command(const run_options& options);

/// Checks manifests and prints every problem as `file:line:col: path: message`, objects `run`
/// will not run among them (warnings; errors when strict) and dependencies no loaded
/// EventSource serves (warnings, also when strict); returns 0 when there is no error, 1
/// otherwise.
int validate_command(const validate_options& options);

} // namespace ganglion::app
