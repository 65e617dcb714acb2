#include "ganglion/core/engine.hpp"

#include <atomic>
#include <map>
#include <set>
#include <thread>

#include <caf/all.hpp>
#include <spdlog/spdlog.h>

#include "engine/engine_impl.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/dsl/filter/precompiled_filters.hpp"
#include "sensor/sensor_actor.hpp"
#include "source/source_actor.hpp"
#include "source/source_stores.hpp"

namespace ganglion::core {

namespace {

void warn_unexecuted(const std::string& name, const dsl::trigger& t, bool durable) {
  if (t.at_least_once && !durable)
    spdlog::info("trigger {}: atLeastOnce: the embedded bus keeps each event until the trigger "
                 "(its retries and dead-letter trigger included) finished; without --data-dir "
                 "it is held in memory, so a crash loses it",
                 name);
}

/// Whether the dependency's data or expr filters hold a gjson path that builds JSON, from the
/// filters the loader compiled (compiled here only when it did not).
bool filter_paths_build(const dsl::event_dependency& dep) {
  try {
    auto compiled = dep.precompiled ? dep.precompiled : dsl::precompile_filters(*dep.filters);
    return compiled->builds_json();
  } catch (const std::exception&) {
    return false; // refused when the sensor compiles
  }
}

/// Whether a sensor runs programs its author wrote (Lua, jq, Go templates in data filters,
/// gjson paths in its filters that build JSON): each may take its whole budget on every event,
/// so such a sensor gets a thread of its own and never delays the sensors on the shared
/// scheduler.
bool runs_programs(const dsl::sensor& sensor) {
  for (const auto& dep : sensor.spec.dependencies) {
    if (dep.transform && (!dep.transform->jq.empty() || !dep.transform->script.empty()))
      return true;
    if (!dep.filters)
      continue;
    if (!dep.filters->script.empty())
      return true;
    for (const auto& data : dep.filters->data)
      if (!data.template_.empty())
        return true;
    if (filter_paths_build(dep))
      return true;
  }
  return false;
}

/// How often an idle scheduler worker wakes to look for work to steal.
constexpr std::chrono::milliseconds idle_wakeup{1000};

} // namespace

void engine::impl::check(const std::vector<dsl::document>& documents) {
  runnability_context cx;
  cx.sources = &sources;
  cx.triggers = &triggers;
  cx.secrets_dir = options.secrets_dir;
  cx.secrets = options.secrets.get();
  auto found = check_runnability(documents, cx);
  std::lock_guard guard{refusals_mutex};
  refused = std::move(found);
}

const refusal* engine::impl::refusal_of(const std::string& kind, const std::string& name) const {
  std::lock_guard guard{refusals_mutex};
  for (const auto& r : refused)
    if (r.kind == kind && r.name == name)
      return &r;
  return nullptr;
}

void engine::impl::plan_sources(const dsl::event_source& es, root_plan& plan) {
  auto manifest = std::make_shared<const dsl::event_source>(es);
  event_sources.push_back(manifest);
  for (const auto& e : manifest->spec.events)
    if (auto spec = source_child(manifest, e))
      plan.children.push_back(std::move(*spec));
}

std::optional<child_spec> engine::impl::source_child(
  const std::shared_ptr<const dsl::event_source>& manifest, const dsl::source_event& event) {
  const auto& es = *manifest;
  const auto& type = event.type;
  const auto& name = event.name;
  auto status_name = es.metadata.name + "/" + name;
  if (const auto* r = refusal_of("source", status_name)) {
    status.set("source", status_name, phase::error, r->text());
    spdlog::error("source {} will not run: {}", status_name, r->text());
    return std::nullopt;
  }
  auto factory = sources.find(type);
  if (factory == sources.end()) {
    status.set("source", status_name, phase::error, type + " event sources are not supported yet");
    spdlog::error("source {}: {} event sources are not supported yet", status_name, type);
    return std::nullopt;
  }
  source_context ctx;
  ctx.event_source_name = es.metadata.argo_name();
  ctx.event_name = name;
  ctx.type = type;
  ctx.manifest = manifest.get();
  ctx.event = &event;
  ctx.bus = options.remote ? std::static_pointer_cast<bus_publisher>(options.remote)
                           : std::static_pointer_cast<bus_publisher>(bus);
  ctx.secrets = secrets->for_namespace(es.metadata.namespace_);
  ctx.metrics = &metrics;
  ctx.store = source_values;
  if (options.config_maps)
    ctx.config_map = [stores = options.config_maps, manifest](const std::string& map, bool create) {
      return stores(*manifest, map, create);
    };
  ownership* owners =
    options.remote && is_active_passive(type) ? &options.remote->owners() : nullptr;
  status.set("source", status_name, phase::pending);
  child_spec spec;
  spec.kind = "source";
  spec.name = status_name;
  // The spec keeps the manifest alive for as long as a source may run from it.
  spec.spawn = [f = factory->second, ctx, manifest, board = &status, status_name,
                owners](caf::local_actor* parent) {
    return parent->spawn<caf::linked>(source_actor, f, ctx, board, status_name, owners);
  };
  return spec;
}

std::optional<trigger_setup> engine::impl::plan_trigger(const dsl::sensor& sensor,
                                                        const dsl::trigger& t) {
  auto status_name = sensor.metadata.name + "/" + t.template_.name;
  if (const auto* r = refusal_of("trigger", status_name)) {
    status.set("trigger", status_name, phase::error, r->text());
    spdlog::error("trigger {} will not run: {}", status_name, r->text());
    return std::nullopt;
  }
  const auto* action = action_of(t);
  auto type = action ? action->type : std::string{};
  auto factory = triggers.find(type);
  if (factory == triggers.end()) {
    auto why = type.empty() ? std::string{"the trigger has no action"}
                            : type + " triggers are not supported yet";
    status.set("trigger", status_name, phase::error, why);
    spdlog::error("trigger {}: {}", status_name, why);
    return std::nullopt;
  }
  // Each object reads the Secrets of its own namespace, as Argo's.
  auto own_secrets = secrets->for_namespace(sensor.metadata.namespace_);
  auto make_context = [&](const dsl::trigger& manifest) {
    trigger_context ctx;
    ctx.sensor_name = sensor.metadata.argo_name();
    ctx.sensor_namespace = sensor.metadata.namespace_;
    ctx.sensor_service_account = sensor.spec.service_account_name;
    ctx.data_dir = options.data_dir;
    ctx.manifest = &manifest;
    ctx.secrets = own_secrets;
    ctx.metrics = &metrics;
    return ctx;
  };
  std::optional<executor_setup> dead_letter;
  try {
    // A configuration the executor refuses does not heal by restarting: report it at once.
    create_trigger_executor(factory->second, make_context(t));
    if (t.dlq_trigger) {
      const auto& dlq = *t.dlq_trigger;
      const auto* dlq_action = action_of(dlq);
      auto dlq_type = dlq_action ? dlq_action->type : std::string{};
      auto dlq_factory = triggers.find(dlq_type);
      if (dlq_factory == triggers.end())
        throw std::runtime_error("dlqTrigger: " + dlq_type + " triggers are not supported yet");
      create_trigger_executor(dlq_factory->second, make_context(dlq));
      dead_letter = executor_setup{dlq_factory->second, make_context(dlq)};
    }
  } catch (const std::exception& ex) {
    status.set("trigger", status_name, phase::error, ex.what());
    spdlog::error("trigger {} cannot run: {}", status_name, ex.what());
    return std::nullopt;
  }
  warn_unexecuted(status_name, t, log != nullptr || options.remote != nullptr);
  trigger_setup setup;
  setup.sensor_name = sensor.metadata.name;
  setup.trigger_name = t.template_.name;
  setup.factory = factory->second;
  setup.context.sensor_name = sensor.metadata.argo_name();
  setup.context.sensor_namespace = sensor.metadata.namespace_;
  setup.context.sensor_service_account = sensor.spec.service_account_name;
  setup.context.data_dir = options.data_dir;
  setup.context.secrets = own_secrets;
  setup.context.metrics = &metrics;
  setup.concurrency = options.trigger_concurrency;
  setup.dead_letter = std::move(dead_letter);
  setup.work = work;
  setup.status = &status;
  status.set("trigger", status_name, phase::pending);
  return setup;
}

std::map<std::string, std::string> warn_unresolved(const dsl::document& doc,
                                                   const dsl::provided_events& provided,
                                                   bool warn) {
  std::map<std::string, std::string> unfed;
  const auto* sensor = std::get_if<dsl::sensor>(&doc.body);
  for (const auto& w : dsl::unresolved_dependencies(doc, provided)) {
    if (warn)
      spdlog::warn("{}", w.without_level());
    if (!sensor)
      continue;
    const auto& deps = sensor->spec.dependencies;
    for (std::size_t i = 0; i < deps.size(); ++i)
      if (w.path.rfind(dsl::yaml_item_path("spec.dependencies", i) + ".", 0) == 0)
        unfed[deps[i].name] = w.message;
  }
  return unfed;
}

void engine::impl::plan_sensor(const dsl::sensor& sensor, root_plan& plan,
                               const std::map<std::string, std::string>& fingerprints,
                               std::map<std::string, std::string> unfed) {
  if (auto spec = sensor_child(sensor, fingerprints, std::move(unfed)))
    plan.children.push_back(std::move(*spec));
}

void engine::impl::explain_dependencies(const dsl::sensor& sensor,
                                        std::map<std::string, std::string> unfed) {
  std::vector<std::string> names;
  for (const auto& dep : sensor.spec.dependencies)
    names.push_back(dep.name);
  std::lock_guard guard{explain_mutex};
  auto& log = explain_logs[sensor.metadata.name];
  if (!log)
    log = std::make_shared<explain_log>();
  log->set_dependencies(std::move(names), std::move(unfed));
}

std::optional<child_spec> engine::impl::sensor_child(
  const dsl::sensor& sensor, const std::map<std::string, std::string>& fingerprints,
  std::map<std::string, std::string> unfed, std::shared_ptr<const sensor_setup>* built) {
  const auto& name = sensor.metadata.name;
  explain_dependencies(sensor, std::move(unfed));
  auto manifest = std::make_shared<const dsl::sensor>(sensor);
  sensor_setup setup;
  setup.matching.dedup_window = options.dedup_window;
  setup.matching.script_budget = options.script_budget;
  // Compiled once: a sensor that cannot run is found here, and its actor gets this core.
  std::unique_ptr<sensor_core> core;
  try {
    core = std::make_unique<sensor_core>(*manifest, &metrics, setup.matching);
  } catch (const std::exception& ex) {
    status.set("sensor", name, phase::error, ex.what());
    spdlog::error("sensor {} cannot run: {}", name, ex.what());
    return std::nullopt;
  }
  auto subscriptions = core->subscriptions();
  setup.core = std::make_shared<prebuilt_core>(std::move(core));
  if (options.remote) {
    try {
      options.remote->prepare(name, subscriptions);
    } catch (const std::exception& ex) {
      spdlog::warn("sensor {}: {} (the replica that runs it will try again)", name, ex.what());
    }
  }
  setup.manifest = manifest;
  setup.bus = bus;
  setup.work = work;
  setup.status = &status;
  setup.metrics = &metrics;
  setup.policy = policy();
  {
    // A reconfigured sensor keeps its recent verdicts.
    std::lock_guard guard{explain_mutex};
    auto& log = explain_logs[name];
    if (!log)
      log = std::make_shared<explain_log>();
    setup.explain = log;
  }
  setup.fingerprints = fingerprints;
  setup.durable = durability_of(name);
  setup.remote = options.remote;
  for (const auto& t : manifest->spec.triggers) {
    auto trigger = plan_trigger(*manifest, t);
    if (trigger)
      trigger->context.manifest = &t;
    setup.triggers.push_back(std::move(trigger));
  }
  status.set("sensor", name, phase::pending);
  auto shared = std::make_shared<const sensor_setup>(std::move(setup));
  if (built)
    *built = shared;
  child_spec spec;
  spec.kind = "sensor";
  spec.name = name;
  spec.spawn = [shared, own_thread = runs_programs(*manifest)](caf::local_actor* parent) {
    if (own_thread)
      return parent->spawn<caf::linked + caf::detached>(sensor_actor, *shared);
    return parent->spawn<caf::linked>(sensor_actor, *shared);
  };
  // Routes exist from the moment the sensor is spawned — before any source starts — so no
  // accepted event finds the bus without its subscriber; the mailbox holds it until the
  // sensor has compiled.
  if (options.remote)
    return spec; // the sensor subscribes to the remote bus itself, once this replica owns it
  spec.on_started = [bus = bus, subscriptions, backlog = backlog_of(name)](const caf::actor& handle) {
    bus->track(handle, backlog);
    for (const auto& [source, subject] : subscriptions)
      bus->subscribe(source, subject, handle);
  };
  return spec;
}

std::shared_ptr<sensor_backlog> engine::impl::backlog_of(const std::string& sensor) {
  auto& backlog = backlogs[sensor];
  if (backlog)
    return backlog;
  backlog = std::make_shared<sensor_backlog>();
  labels series{{"sensor", sensor}};
  metrics.set_gauge("ganglion_sensor_backlog",
                    "Events the embedded bus routed to a sensor that it has not judged yet",
                    series, [backlog] { return backlog->events(); });
  metrics.set_gauge("ganglion_sensor_backlog_oldest_milliseconds",
                    "How long the oldest event routed to a sensor and not judged yet has waited",
                    series, [backlog] { return backlog->oldest_ms(sensor_backlog::clock::now()); });
  return backlog;
}

void engine::impl::open_log() {
  const auto& durable = options.durability;
  auto policy = parse_fsync_policy(durable.fsync);
  if (!policy)
    throw std::runtime_error("invalid fsync policy '" + durable.fsync
                             + "': expected always, interval or never");
  fsync = *policy;
  event_log_options log_options;
  log_options.directory = options.data_dir + "/log";
  log_options.fsync = fsync;
  log_options.fsync_interval = durable.fsync_interval;
  log_options.segment_bytes = durable.segment_bytes;
  log_options.retention_bytes = durable.retention_bytes;
  log_options.retention_age = durable.retention_age;
  log = std::make_shared<event_log>(log_options, &metrics);
  const auto& recovered = log->recovery();
  for (const auto& problem : recovered.problems)
    spdlog::warn("bus log: {}", problem);
  if (recovered.records == 0)
    spdlog::info("bus log {}: empty, next sequence {}, fsync {}", log_options.directory,
                 recovered.next_sequence, durable.fsync);
  else
    spdlog::info("bus log {}: {} event(s) on disk (sequences {}..{}), fsync {}",
                 log_options.directory, recovered.records, recovered.first_sequence,
                 recovered.next_sequence - 1, durable.fsync);
  cursors = std::make_shared<cursor_board>(log);
}

std::string engine::impl::state_directory(const std::string& sensor) const {
  auto slash = sensor.find('/');
  if (slash == std::string::npos)
    return options.data_dir + "/sensors/" + sensor;
  return options.data_dir + "/namespaces/" + sensor.substr(0, slash) + "/sensors/"
         + sensor.substr(slash + 1);
}

std::shared_ptr<const sensor_durability> engine::impl::durability_of(const std::string& sensor) {
  if (!log)
    return nullptr;
  // Until the sensor has recovered and committed, nothing it may still need is released.
  cursors->pin(sensor);
  auto durable = std::make_shared<sensor_durability>();
  durable->directory = state_directory(sensor);
  durable->fsync = fsync;
  durable->log = log;
  durable->cursors = cursors;
  durable->fresh_start = log->next_sequence();
  return durable;
}

void engine::impl::init(engine_options opts, source_registry source_kinds,
                        trigger_registry trigger_kinds) {
  options = std::move(opts);
  sources = std::move(source_kinds);
  triggers = std::move(trigger_kinds);
  add_engine_triggers(triggers);
  secrets = options.secrets ? options.secrets
                            : std::make_shared<const secret_store>(options.secrets_dir);
  if (!options.data_dir.empty() && !options.remote)
    open_log();
  bus = std::make_shared<embedded_bus>(options.bus_capacity, metrics, work, log,
                                       options.bus_capacity_bytes);
  source_values = options.remote           ? make_remote_source_store(options.remote)
                  : options.data_dir.empty() ? make_memory_source_store()
                                             : make_file_source_store(options.data_dir + "/sources");
  metrics.set_gauge("ganglion_work_in_flight",
                    "Accepted events not yet judged by every sensor, and firings not finished", {},
                    [counted = work] { return counted->pending(); });
}

engine::engine(engine_options options, source_registry sources, trigger_registry triggers)
  : impl_(std::make_unique<impl>()) {
  auto threads = options.scheduler_threads;
  if (threads == 0)
    threads = std::max(1u, std::thread::hardware_concurrency()) - 1;
  impl_->config.set("scheduler.max-threads", std::max<std::size_t>(1, threads));
  // An idle worker sleeps on a condition variable that a job for it wakes; this is only how
  // often it wakes anyway to steal from busy peers (CAF's default, 10 ms, is 100 wake-ups a
  // second per worker while nothing happens). A worker goes there after ~25 ms without work.
  impl_->config.set("work-stealing.relaxed-sleep-duration", caf::timespan{idle_wakeup});
  impl_->owned_system = std::make_unique<caf::actor_system>(impl_->config);
  impl_->system = impl_->owned_system.get();
  impl_->init(std::move(options), std::move(sources), std::move(triggers));
}

engine::engine(caf::actor_system& host, engine_options options, source_registry sources,
               trigger_registry triggers)
  : impl_(std::make_unique<impl>()) {
  impl_->system = &host;
  impl_->init(std::move(options), std::move(sources), std::move(triggers));
}

void engine::start(const std::vector<dsl::document>& documents) {
  auto& d = *impl_;
  if (d.started)
    throw std::logic_error("engine already started");
  d.started = true;
  d.check(documents);
  auto plan = std::make_shared<root_plan>();
  plan->status = &d.status;
  plan->policy = d.policy();
  if (d.options.remote) {
    d.status.set("bus", d.options.remote->kind(), phase::running);
  } else {
    d.status.set("bus", "embedded", phase::pending);
    child_spec bus_spec;
    bus_spec.kind = "bus";
    bus_spec.name = "embedded";
    bus_spec.spawn = [bus = d.bus, board = &d.status](caf::local_actor* parent) {
      auto handle = parent->spawn<caf::linked>(bus_dispatcher, bus);
      board->set("bus", "embedded", phase::running);
      return handle;
    };
    plan->children.push_back(std::move(bus_spec));
  }
  auto provided = dsl::events_provided(documents);
  for (const auto& doc : documents)
    if (auto s = std::get_if<dsl::sensor>(&doc.body)) {
      d.plan_sensor(*s, *plan, doc.fingerprints, warn_unresolved(doc, provided));
    }
  for (const auto& doc : documents)
    if (auto es = std::get_if<dsl::event_source>(&doc.body))
      d.plan_sources(*es, *plan);
  d.root = d.system->spawn(engine_root, plan);
  d.remember(documents);
  d.planned = true;
}

status_board& engine::status() noexcept {
  return impl_->status;
}

metrics_registry& engine::metrics() noexcept {
  return impl_->metrics;
}

std::optional<std::string> engine::explain(const std::string& sensor) const {
  std::lock_guard guard{impl_->explain_mutex};
  auto it = impl_->explain_logs.find(sensor);
  if (it == impl_->explain_logs.end())
    return std::nullopt;
  return it->second->to_json(sensor);
}

std::vector<refusal> engine::refusals() const {
  std::lock_guard guard{impl_->refusals_mutex};
  return impl_->refused;
}

bool engine::ready() const {
  return impl_->planned && !impl_->stopped && impl_->status.all_sources_running();
}

} // namespace ganglion::core
