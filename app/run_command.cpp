#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <optional>
#include <set>
#include <thread>

#include <sys/resource.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include <spdlog/spdlog.h>

#include "admin_routes.hpp"
#include "bus_choice.hpp"
#include "cluster_mode.hpp"
#include "commands.hpp"
#include "manifest_watcher.hpp"
#include "reload.hpp"
#include "ganglion/core/engine.hpp"
#include "ganglion/core/redact.hpp"
#include "ganglion/dsl/duration.hpp"
#include "ganglion/dsl/load.hpp"
#include "kinds.hpp"
#ifdef GANGLION_WITH_KUBERNETES
#include "ganglion/kubernetes/cluster_manifests.hpp"
#include "ganglion/kubernetes/object_identity.hpp"
#endif

namespace ganglion::app {

namespace {

/// Blocks the stop signals (and SIGHUP, reload) in every thread started after it, so that only
/// sigwait sees them.
sigset_t block_stop_signals() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  std::signal(SIGPIPE, SIG_IGN);
  return set;
}

/// Raises the soft limit of open descriptors to the hard one: every durable sensor keeps its
/// journal open, and a webhook connection is a descriptor too (the default soft limit is
/// often 1024).
void raise_descriptor_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur >= limit.rlim_max)
    return;
  limit.rlim_cur = limit.rlim_max;
  if (setrlimit(RLIMIT_NOFILE, &limit) != 0)
    spdlog::warn("cannot raise the open-file limit to {}", limit.rlim_max);
}

/// Caps glibc's malloc arenas at two. Sensors are compiled on every scheduler thread, and
/// each thread's arena keeps its own fragments: with 10 000 sensors the default (8 per core)
/// held 520 MB, two arenas 440 MB; webhook events/s stayed within the noise (docs/decisions.md).
void cap_malloc_arenas() {
#ifdef __GLIBC__
  if (std::getenv("MALLOC_ARENA_MAX") == nullptr)
    mallopt(M_ARENA_MAX, 2);
#endif
}

/// Points the engine at the write-ahead log under `--data-dir`, with the fsync and retention
/// flags; false (logged) when a duration flag is not a positive Go duration.
bool configure_log(const run_options& options, core::engine_options& engine_options) {
  engine_options.data_dir = options.data_dir;
  auto& durable = engine_options.durability;
  durable.fsync = options.fsync;
  auto interval = dsl::parse_go_duration(options.fsync_interval);
  auto age = dsl::parse_go_duration(options.retention_age);
  if (!interval || *interval <= 0 || !age || *age <= 0) {
    spdlog::error("--fsync-interval and --retention-age take a positive Go duration "
                  "(e.g. 100ms, 24h)");
    return false;
  }
  durable.fsync_interval =
    std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::nanoseconds(*interval));
  durable.retention_age =
    std::chrono::duration_cast<std::chrono::seconds>(std::chrono::nanoseconds(*age));
  durable.segment_bytes = options.segment_mb << 20;
  durable.retention_bytes = options.retention_mb << 20;
  return true;
}

/// What will not run, once the start has settled (no trigger pending): the refusals of the
/// start, and the triggers and sources that went to Error while starting (an executor that
/// could not be made, such as a `k8s` trigger without a Kubernetes configuration).
void announce_refusals(core::engine& engine, std::atomic<bool>& stopping) {
  auto settled = [&engine] {
    for (const auto& c : engine.status().snapshot())
      if (c.kind == "trigger" && c.phase == core::phase::pending)
        return false;
    return true;
  };
  for (int i = 0; i < 300 && !stopping && !settled(); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  auto refused = engine.refusals();
  std::set<std::pair<std::string, std::string>> named;
  for (const auto& r : refused)
    named.emplace(r.kind, r.name);
  for (const auto& c : engine.status().snapshot())
    if ((c.kind == "trigger" || c.kind == "source") && c.phase == core::phase::error
        && !named.count({c.kind, c.name}))
      refused.push_back(core::refusal{c.kind, c.name, {}});
  if (auto summary = core::runnability_summary(refused); !summary.empty())
    spdlog::warn("{}: /v1/status shows why, /ready stays 503 while a source cannot run (see "
                 "docs/compatibility.md)",
                 summary);
}

/// Logs once when every source listens.
void announce_ready(core::engine& engine, std::atomic<bool>& stopping) {
  for (int i = 0; i < 6000 && !stopping; ++i) {
    if (engine.ready()) {
      spdlog::info("ganglion is ready");
#ifdef __GLIBC__
      // Loading and compiling thousands of manifests leaves freed heap behind; give it back.
      malloc_trim(0);
#endif
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

/// Whose rights objects' Kubernetes calls use: `--object-identity`; else in cluster mode
/// `impersonate` when the engine may impersonate the service accounts of the namespaces it
/// serves, `namespace` (after a warning) when not; else `engine`.
std::string object_identity_of(const run_options& options) {
  if (!options.object_identity.empty() || !options.from_cluster)
    return options.object_identity;
#ifdef GANGLION_WITH_KUBERNETES
  try {
    auto client = kubernetes::cluster_client(options.kubeconfig);
    std::vector<std::string> namespaces;
    if (!options.all_namespaces)
      namespaces = options.namespaces.empty()
                     ? std::vector<std::string>{client->config().default_namespace}
                     : options.namespaces;
    auto mode = kubernetes::cluster_identity_mode(*client, namespaces);
    spdlog::info("object identity: {} (EventSources and Sensors act {})",
                 kubernetes::to_string(mode),
                 mode == kubernetes::identity_mode::impersonate
                   ? "as their service accounts"
                   : "with the engine's rights, each in its own namespace");
    return std::string(kubernetes::to_string(mode));
  } catch (const std::exception&) {
    // No configuration: cluster mode reports it and stops the start.
    return "namespace";
  }
#else
  return options.object_identity;
#endif
}

} // namespace

int run_command(const run_options& options) {
  // Declared first, so destroyed last: `stopped` ends the log of a graceful stop.
  struct stopped_line {
    bool stopped = false;
    ~stopped_line() {
      if (stopped)
        spdlog::info("stopped");
    }
  } last_line;
  // Blocked before any thread starts (the HTTP transport's start right below), so that every
  // thread inherits the mask and SIGTERM reaches only the sigwait below: a thread that did not
  // block it took a SIGTERM sent while this one was not waiting yet, and its default action
  // killed the process (exit 143 instead of a graceful stop). One sent during the start waits
  // for it.
  auto signals = block_stop_signals();
  // Read first: an unusable token file stops the start before anything runs.
  std::shared_ptr<admin_token> token;
  if (!options.admin_token_file.empty()) {
    try {
      token = std::make_shared<admin_token>(options.admin_token_file);
    } catch (const std::exception& ex) {
      spdlog::error("{}", ex.what());
      return 1;
    }
  }
  http::runtime_options transport_options;
  transport_options.bind_host = options.webhook_host;
  transport_options.server.threads = options.io_threads;
  if (!options.listen.empty())
    transport_options.listen = http::parse_listen(options.listen);
  if (transport_options.listen && !options.admin.empty()
      && options.admin.ends_with(":" + std::to_string(transport_options.listen->port))) {
    spdlog::error("--admin {} and --listen {} share a port: give the admin endpoints a port of "
                  "their own, or leave --admin out (/health and /ready are on the --listen port)",
                  options.admin, transport_options.listen->to_string());
    return 1;
  }
  auto transport = std::make_shared<http::runtime>(transport_options);
  auto settings =
    settings_of(options.kind_options, options.kubeconfig, object_identity_of(options));
  auto registered = register_kinds(transport, settings);
  auto load_options = load_options_for(registered);
  load_options.empty_directory_ok = options.from_cluster;
  auto loaded = dsl::load_manifests(options.files, load_options);
  for (const auto& d : loaded.diagnostics)
    std::fprintf(stderr, "%s\n", core::redact_url_userinfo(d.to_string()).c_str());
  if (dsl::has_errors(loaded.diagnostics)) {
    spdlog::error("the manifests have errors; nothing was started");
    return 1;
  }
  raise_descriptor_limit();
  cap_malloc_arenas();
  std::unique_ptr<cluster_mode> cluster;
  if (options.from_cluster) {
    try {
      cluster = std::make_unique<cluster_mode>(options, load_options);
    } catch (const std::exception& ex) {
      spdlog::error("cannot run --from-cluster: {}", ex.what());
      return 1;
    }
    auto objects = cluster->documents(loaded.documents);
    loaded.documents.insert(loaded.documents.end(), std::make_move_iterator(objects.begin()),
                            std::make_move_iterator(objects.end()));
  }

  core::engine_options engine_options;
  engine_options.secrets_dir = options.secrets_dir;
  if (cluster) {
    engine_options.secrets = cluster->secrets();
    engine_options.config_maps = cluster->config_maps(settings);
  }
  try {
    auto secrets = engine_options.secrets
                     ? engine_options.secrets
                     : std::make_shared<const core::secret_store>(options.secrets_dir);
    cluster_status_of status;
    if (cluster)
      status = [&cluster](const dsl::document& doc) { return cluster->status_of(doc); };
    engine_options.remote =
      open_bus(loaded.documents, options, std::move(secrets), registered.buses, settings, status);
  } catch (const std::exception& ex) {
    spdlog::error("cannot open the EventBus: {}", ex.what());
    return 1;
  }
  // A remote bus keeps the events and the sensors' state: there is no local log.
  if (!engine_options.remote) {
    if (options.in_memory)
      spdlog::warn("--in-memory: accepted events are kept in memory only; a crash loses them");
    else if (!configure_log(options, engine_options))
      return 1;
  }
  engine_options.bus_capacity = options.bus_capacity;
  engine_options.bus_capacity_bytes = options.bus_capacity_mib << 20;
  engine_options.dedup_window =
    std::chrono::milliseconds(static_cast<long>(options.dedup_window_seconds * 1000));
  engine_options.shutdown_grace =
    std::chrono::milliseconds(static_cast<long>(options.shutdown_grace_seconds * 1000));
  auto budget = dsl::parse_go_duration(options.script_budget);
  if (!budget || *budget < 1'000'000) {
    spdlog::error("--script-budget takes a Go duration of at least 1ms (e.g. 100ms), not '{}'",
                  options.script_budget);
    return 1;
  }
  engine_options.script_budget =
    std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::nanoseconds(*budget));

  engine_options.scheduler_threads = options.scheduler_threads;

  std::unique_ptr<core::engine> running;
  try {
    running = std::make_unique<core::engine>(engine_options, std::move(registered.sources),
                                             std::move(registered.triggers));
  } catch (const std::exception& ex) {
    spdlog::error("cannot start: {}", ex.what());
    return 1;
  }
  auto& engine = *running;

  extra_documents from_cluster;
  if (cluster) {
    from_cluster.load = [&cluster](const std::vector<dsl::document>& files) {
      return cluster->documents(files);
    };
    from_cluster.applied = [&cluster] { cluster->publish(); };
  }
  reloader reloads{engine, options.files, std::move(load_options), std::move(from_cluster)};
  std::vector<http::route> admin;
  if (!options.admin.empty()) {
    admin_access access{{}, options.admin_hosts, std::move(token)};
    try {
      admin = serve_admin(*transport, options.admin, engine, std::move(access), &reloads);
    } catch (const std::exception& ex) {
      spdlog::error("cannot serve the admin endpoints on {}: {}", options.admin, ex.what());
      return 1;
    }
    spdlog::info("admin endpoints on http://{}", options.admin);
  }

  std::optional<http::route> readiness;
  if (auto listen = transport->listen) {
    try {
      readiness = serve_readiness(*transport, *listen, engine);
    } catch (const std::exception& ex) {
      spdlog::error("cannot serve --listen {}: {}", listen->to_string(), ex.what());
      return 1;
    }
    spdlog::info("every webhook, /health and /ready on http://{} (--listen); the ports the "
                 "manifests name are not bound",
                 listen->to_string());
  }

  // Watched before the engine starts: an edit made once /ready answers is never missed.
  std::unique_ptr<manifest_watcher> watcher;
  if (!options.no_watch && !options.files.empty()) {
    try {
      // The data directory may lie in a watched one (`-f .`); its writes are no edits.
      watcher = std::make_unique<manifest_watcher>(
        options.files, [&reloads] { reloads.request("the manifest files changed"); },
        std::vector<std::string>{engine_options.data_dir});
    } catch (const std::exception& ex) {
      spdlog::warn("manifest files are not watched: {}", ex.what());
    }
  }

  engine.start(loaded.documents);
  // The engine keeps its own copies; the documents' YAML positions are no longer needed.
  loaded = {};
  if (cluster)
    cluster->attach(engine, [&reloads] { reloads.request("the cluster's objects changed"); });
  std::atomic<bool> stopping{false};
  std::thread announcer{[&] {
    announce_refusals(engine, stopping);
    announce_ready(engine, stopping);
  }};

  int sig = 0;
  for (;;) {
    sigwait(&signals, &sig);
    if (sig != SIGHUP)
      break;
    reloads.request("SIGHUP");
  }
  stopping = true;
  announcer.join();
  spdlog::info("received {}, stopping", sig == SIGINT ? "SIGINT" : "SIGTERM");
  watcher.reset();
  reloads.stop();
  cluster.reset();
  // /ready goes first: the --listen port then answers what a stopping engine answers (503
  // while the webhooks drain, then no connection once their routes are gone), never a 404 of a
  // listener kept open for /ready alone.
  readiness.reset();
  engine.stop();
  admin.clear();
  last_line.stopped = true;
  return 0;
}

} // namespace ganglion::app
