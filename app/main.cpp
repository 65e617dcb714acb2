// The ganglion command line: parses arguments and hands over to a command.

#include <cstdio>

#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include "commands.hpp"
#include "ganglion/core/logging.hpp"
#include "ganglion/http/listen.hpp"
#include "kind_flags.hpp"
#include "kinds.hpp"

namespace {

/// --listen's value is an address http::parse_listen reads; its error otherwise.
std::string listen_check(const std::string& value) {
  try {
    ganglion::http::parse_listen(value);
    return {};
  } catch (const std::exception& ex) {
    return std::string(ex.what()) + " (from --listen, or $PORT when --listen is not given)";
  }
}

} // namespace

int main(int argc, char** argv) {
  using namespace ganglion::app;
  CLI::App cli{"ganglion: runs Argo Events manifests (EventSource, Sensor, EventBus) in one process"};
  cli.require_subcommand(1);
  std::string log_level = "info";
  cli.add_option("--log-level", log_level, "trace, debug, info, warn, error or off")
    ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));

  run_options run;
  auto* run_cmd = cli.add_subcommand(
    "run", "Run manifests: on the embedded durable bus, or on the NATS JetStream or Kafka bus an "
           "EventBus manifest names (shared by every replica)");
  run_cmd->add_option("-f,--file", run.files, "Manifest files or directories");
  auto* from_cluster = run_cmd->add_flag(
    "--from-cluster", run.from_cluster,
    "Also run the EventSources, Sensors and EventBus of the Kubernetes cluster (watched; each "
    "object's status is written), with Secrets read through the API");
  auto* namespaces =
    run_cmd
      ->add_option("--namespace", run.namespaces,
                   "With --from-cluster: a namespace to watch (repeatable; default: the "
                   "kubeconfig context's, or the service account's)")
      ->needs(from_cluster);
  run_cmd
    ->add_flag("--all-namespaces", run.all_namespaces,
               "With --from-cluster: watch every namespace")
    ->needs(from_cluster)
    ->excludes(namespaces);
  run_cmd->callback([&] {
    if (run.files.empty() && !run.from_cluster)
      throw CLI::RequiredError("run needs -f FILE, --from-cluster, or both",
                               CLI::ExitCodes::RequiredError);
  });
  run_cmd->add_flag("--no-watch", run.no_watch,
                    "Do not reload when the manifest files change (SIGHUP and POST /v1/reload "
                    "still do)");
  auto* admin = run_cmd->add_option(
    "--admin", run.admin,
    "HOST:PORT for the admin endpoints: /health /ready /metrics /v1/status "
    "/v1/explain?sensor=NAME, POST /v1/reload and POST "
    "/v1/sources/EVENTSOURCE/EVENT/restart (none without it; a POST needs the header "
    "X-Ganglion-Admin: 1)");
  run_cmd->add_option("--admin-host", run.admin_hosts,
                      "A DNS name the admin server answers to in Host, besides IP addresses, "
                      "localhost and the --admin host (repeatable; *.example.com for every name "
                      "under it)")
    ->needs(admin);
  run_cmd->add_option("--admin-token-file", run.admin_token_file,
                      "File of a bearer token every admin request but /health and /ready must "
                      "send (Authorization: Bearer TOKEN); read again when it changes")
    ->needs(admin);
  run_cmd->add_option("--secrets-dir", run.secrets_dir,
                      "Directory of mounted secrets: <dir>/<secret-name>/<key>");
  run_cmd->add_option("--kubeconfig", run.kubeconfig,
                      "A kubeconfig file for cluster mode, the resource source and the k8s and "
                      "argoWorkflow triggers (default: $KUBECONFIG, ~/.kube/config, else the "
                      "pod's service account)");
  run_cmd->add_option("--object-identity", run.object_identity,
                      "Whose rights the resource source, the k8s and argoWorkflow triggers and "
                      "the configmap trigger source use: impersonate (the object's service "
                      "account), namespace (the engine's, only in the object's namespace) or "
                      "engine (default: impersonate with --from-cluster when the engine may "
                      "impersonate service accounts, else namespace; engine without it)")
    ->check(CLI::IsMember({"impersonate", "namespace", "engine"}));
  // The options the kinds declare (ganglion_add_kind's OPTIONS), on the commands they name.
  const auto declared = transport_options();
  kind_flags run_kinds;
  run_kinds.add_to(run_cmd, "run", declared);
  auto* data_dir =
    run_cmd
      ->add_option("--data-dir", run.data_dir,
                   "Directory of the durable bus: its log and every sensor's cursor and state")
      ->capture_default_str();
  run_cmd
    ->add_flag("--in-memory", run.in_memory,
               "Keep accepted events in memory only (no --data-dir; a crash loses them)")
    ->excludes(data_dir);
  run_cmd->add_option("--fsync", run.fsync,
                      "always: fdatasync before acknowledging (group commit); interval: "
                      "acknowledge once written, fdatasync every --fsync-interval; never")
    ->capture_default_str()
    ->check(CLI::IsMember({"always", "interval", "never"}));
  run_cmd->add_option("--fsync-interval", run.fsync_interval, "Go duration, e.g. 100ms")
    ->capture_default_str();
  run_cmd->add_option("--segment-mb", run.segment_mb, "Size of one log segment file (MiB)")
    ->capture_default_str()
    ->check(CLI::Range(1, 4096));
  run_cmd->add_option("--retention-mb", run.retention_mb,
                      "Finished log segments beyond this total are deleted (MiB)")
    ->capture_default_str();
  run_cmd->add_option("--retention-age", run.retention_age,
                      "Finished log segments older than this are deleted (Go duration)")
    ->capture_default_str();
  run_cmd->add_option("--webhook-host", run.webhook_host,
                      "Address webhook event sources listen on")
    ->capture_default_str();
  run_cmd
    ->add_option("--listen", run.listen,
                 "[HOST]:PORT (or PORT) that serves every webhook, routed by endpoint, with "
                 "/health and /ready; the ports the manifests name are not bound (default: "
                 "$PORT when set, as Knative and other one-port platforms give it)")
    ->envname("PORT")
    ->check(listen_check);
  run_cmd->add_option("--bus-capacity", run.bus_capacity,
                      "Events alive at once before sources are refused (HTTP 503)")
    ->capture_default_str();
  run_cmd
    ->add_option("--bus-capacity-mib", run.bus_capacity_mib,
                 "MiB of events alive at once before sources are refused (HTTP 503)")
    ->check(CLI::Range(std::size_t{1}, std::size_t{1} << 24))
    ->capture_default_str();
  run_cmd->add_option("--shutdown-grace", run.shutdown_grace_seconds,
                      "Seconds to finish in-flight triggers on SIGTERM")
    ->capture_default_str();
  run_cmd->add_option("--dedup-window", run.dedup_window_seconds,
                      "Seconds a sensor remembers event ids to skip duplicates (0: off)")
    ->capture_default_str();
  run_cmd->add_option("--script-budget", run.script_budget,
                      "Time one run of a sensor's jq or Lua script may take before it is cut "
                      "off and the event fails that dependency (Go duration)")
    ->capture_default_str();
  run_cmd->add_option("--scheduler-threads", run.scheduler_threads,
                      "Threads running sensors and triggers (0: one per core but one, at least one)")
    ->capture_default_str();
  run_cmd->add_option("--io-threads", run.io_threads, "Threads serving webhooks and admin HTTP")
    ->capture_default_str()
    ->check(CLI::Range(1, 64));
  run_cmd->add_option("--replica-id", run.replica_id,
                      "This replica's id on a JetStream or Kafka bus (default: host-pid-random)");
  run_cmd->add_option("--bus-url", run.bus_url,
                      "NATS URL for a spec.jetstream EventBus, which names no server")
    ->capture_default_str();
  run_cmd->add_option("--lease-ttl", run.lease_ttl,
                      "On a JetStream or Kafka bus: how long a dead replica's sensors wait before "
                      "another replica takes them over (Go duration)")
    ->capture_default_str();
  run_cmd->add_option("--log-level", log_level, "trace, debug, info, warn, error or off")
    ->check(CLI::IsMember({"trace", "debug", "info", "warn", "error", "off"}));

  validate_options validate;
  auto* validate_cmd = cli.add_subcommand("validate", "Check manifests and report every problem");
  validate_cmd->add_option("-f,--file", validate.files, "Manifest files or directories")->required();
  validate_cmd->add_flag("--strict", validate.strict,
                         "Unknown fields and objects run will not run are errors, not warnings");
  validate_cmd
    ->add_option("--listen", validate.listen,
                 "The --listen run will get: two webhooks serving one endpoint is an error "
                 "(default: $PORT when set)")
    ->envname("PORT")
    ->check(listen_check);
  validate_cmd->add_option("--secrets-dir", validate.secrets_dir,
                           "Directory run will read secrets from: each referenced "
                           "<dir>/<secret-name>/<key> must exist");
  validate_cmd->add_option("--kubeconfig", validate.kubeconfig,
                           "A kubeconfig file for the k8s and argoWorkflow triggers (default: $KUBECONFIG, "
                      "~/.kube/config, else the pod's service account)");
  validate_cmd
    ->add_option("--object-identity", validate.object_identity,
                 "The --object-identity run will get (namespace: report the sources and "
                 "triggers that leave their object's namespace)")
    ->check(CLI::IsMember({"impersonate", "namespace", "engine"}));
  kind_flags validate_kinds;
  validate_kinds.add_to(validate_cmd, "validate", declared);

  test_options test;
  auto* test_cmd = cli.add_subcommand(
    "test", "Dry run: which dependencies accept the events, which triggers would fire, and what "
            "they would send (nothing is sent)");
  test_cmd->add_option("-f,--file", test.files, "Manifest files or directories")->required();
  auto* event = test_cmd->add_option(
    "--event", test.events,
    "A CloudEvent JSON file ({\"source\",\"subject\",\"data\",…}); repeat for a sequence");
  auto* body = test_cmd
                 ->add_option("--body", test.body,
                              "A request body file (e.g. the load generator's; {{seq}} becomes "
                              "1): the event the webhook --source/--subject makes of it")
                 ->check(CLI::ExistingFile)
                 ->excludes(event);
  auto* source = test_cmd->add_option("--source", test.source, "With --body: the EventSource name")
                   ->needs(body);
  auto* subject = test_cmd->add_option("--subject", test.subject, "With --body: the event name")
                    ->needs(body);
  body->needs(source)->needs(subject);
  test_cmd->add_option("--header", test.headers,
                       "With --body: a request header 'Name: value' (repeatable; Content-Type "
                       "defaults to application/json)")
    ->needs(body);
  test_cmd->callback([&] {
    if (test.events.empty() && test.body.empty())
      throw CLI::RequiredError(
        "test needs --event FILE, or --body FILE with --source and --subject",
        CLI::ExitCodes::RequiredError);
  });
  test_cmd->add_option("--secrets-dir", test.secrets_dir,
                       "Directory of mounted secrets: <dir>/<secret-name>/<key>");
  test_cmd->add_option("--kubeconfig", test.kubeconfig,
                       "A kubeconfig file for the k8s and argoWorkflow triggers (default: $KUBECONFIG, "
                      "~/.kube/config, else the pod's service account)");
  kind_flags test_kinds;
  test_kinds.add_to(test_cmd, "test", declared);

  auto* version_cmd = cli.add_subcommand("version", "Print the version");

  try {
    cli.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // A usage error exits 2, as most command line tools do (--help: 0).
    return cli.exit(e) == 0 ? 0 : 2;
  }
  run.kind_options = run_kinds.values();
  validate.kind_options = validate_kinds.values();
  test.kind_options = test_kinds.values();
  spdlog::set_level(spdlog::level::from_str(log_level));
  spdlog::set_pattern("%Y-%m-%dT%H:%M:%S.%e %^%l%$ %v");
  ganglion::core::redact_log_lines();
  if (*version_cmd) {
    std::printf("ganglion %s\n", GANGLION_VERSION);
    return 0;
  }
  if (*validate_cmd)
    return validate_command(validate);
  if (*test_cmd)
    return test_command(test);
  return run_command(run);
}
