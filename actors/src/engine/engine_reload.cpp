// Hot reload: the new manifests are compared with the running ones part by part (by
// fingerprint), and only what changed is started, stopped, restarted or reconfigured — in one
// message to the root supervisor, so that no event sees half a reload.

#include <chrono>
#include <set>
#include <thread>

#include <caf/all.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "engine/engine_impl.hpp"
#include "sensor/sensor_actor.hpp"

namespace ganglion::core {

namespace {

using prints = std::map<std::string, std::string>;
using action = reload_step::action;

/// How long the root may take to stop removed children and start their replacements.
constexpr auto apply_timeout = std::chrono::seconds(30);

std::string print_of(const prints& p, const std::string& key) {
  auto it = p.find(key);
  return it == p.end() ? std::string{} : it->second;
}

/// The names of the parts `<prefix><name>` of `p`, e.g. the triggers of a sensor.
std::vector<std::string> parts(const prints& p, const std::string& prefix) {
  std::vector<std::string> out;
  for (auto it = p.lower_bound(prefix); it != p.end() && it->first.starts_with(prefix); ++it)
    out.push_back(it->first.substr(prefix.size()));
  return out;
}

std::string joined(const std::vector<std::string>& names) {
  return names.empty() ? std::string{"-"} : fmt::format("{}", fmt::join(names, ", "));
}

/// Planning registers every planned component as Pending. Components that keep running (a
/// reconfigured sensor and its triggers) go back to their phase; new sources and sensors, and
/// restarted sources, appear once their new version runs (or fails). So /ready holds through a
/// reload unless a new source fails to listen.
void keep_phases(status_board& status, const std::vector<component_status>& before,
                 const std::set<std::pair<std::string, std::string>>& fresh) {
  std::map<std::pair<std::string, std::string>, phase> was;
  for (const auto& c : before)
    was.emplace(std::pair{c.kind, c.name}, c.phase);
  for (const auto& c : status.snapshot()) {
    if (c.phase != phase::pending)
      continue;
    std::pair key{c.kind, c.name};
    auto it = was.find(key);
    if (fresh.count(key) || (it == was.end() && c.kind == "sensor"))
      status.remove(c.kind, c.name);
    else if (it != was.end() && it->second != phase::pending)
      status.set(c.kind, c.name, it->second);
  }
}

/// Waits until every source of `names` reports how its start went (listening, failed, or
/// started and waiting for its service: Pending with a message), so that a reload's answer
/// means its new webhooks listen.
void await_sources(const status_board& status, std::set<std::string> names) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!names.empty() && std::chrono::steady_clock::now() < deadline) {
    for (const auto& c : status.snapshot())
      if (c.kind == "source" && (c.phase != phase::pending || !c.message.empty()))
        names.erase(c.name);
    if (!names.empty())
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  for (const auto& name : names)
    spdlog::warn("reload: source {} has not started yet", name);
}

bool apply_steps(caf::actor_system& system, const caf::actor& root,
                 std::shared_ptr<std::vector<reload_step>> steps) {
  if (steps->empty())
    return true;
  caf::scoped_actor self{system};
  bool applied = false;
  self->request(root, apply_timeout, apply_reload{std::move(steps)})
    .receive([&](bool) { applied = true; },
             [&](const caf::error& error) {
               spdlog::error("reload: the engine did not apply every change within {} s: {}",
                             apply_timeout.count(), system.render(error));
             });
  return applied;
}

} // namespace

/// A reload being planned: the new manifests by name, and what to do with them.
struct reload_draft {
  explicit reload_draft(const std::vector<dsl::document>& documents) {
    for (const auto& doc : documents) {
      if (auto es = std::get_if<dsl::event_source>(&doc.body)) {
        sources[es->metadata.name] = &doc;
        for (const auto& e : es->spec.events)
          provided.emplace(es->metadata.namespaced_name(), e.name);
      } else if (auto s = std::get_if<dsl::sensor>(&doc.body)) {
        sensors[s->metadata.name] = &doc;
      } else if (auto b = std::get_if<dsl::event_bus>(&doc.body)) {
        buses[b->metadata.name] = &doc;
      }
    }
  }

  void step(action what, const std::string& kind, const std::string& name, child_spec spec = {}) {
    steps->push_back(reload_step{what, kind, name, std::move(spec), {}});
  }

  std::map<std::string, const dsl::document*> sources;
  std::map<std::string, const dsl::document*> sensors;
  std::map<std::string, const dsl::document*> buses;
  dsl::provided_events provided;
  std::shared_ptr<std::vector<reload_step>> steps = std::make_shared<std::vector<reload_step>>();
  reload_result result;
  /// Changed components whose new version cannot run: stopped, shown with the reason.
  std::vector<std::pair<std::string, std::string>> cannot_run;
  /// Status names of triggers that went away with their sensor or from a changed one.
  std::vector<std::string> stale_triggers;
  std::vector<std::string> removed_sensors;
  /// Sources started or restarted: the reload's answer waits until they report.
  std::set<std::string> fresh_sources;
};

void engine::impl::diff_sources(reload_draft& draft) {
  for (const auto& [es_name, old] : running_sources) {
    auto next = draft.sources.find(es_name);
    for (const auto& event : parts(old, "event/"))
      if (next == draft.sources.end() || !next->second->fingerprints.count("event/" + event)) {
        draft.step(action::remove, "source", es_name + "/" + event);
        draft.result.stopped.push_back("source/" + es_name + "/" + event);
      }
  }
  // A source that gave up (phase Error after it ran) starts again on any reload, changed or
  // not: a reload is how a person says "try again".
  std::set<std::string> gave_up;
  for (const auto& c : status.snapshot())
    if (c.kind == "source" && c.phase == phase::error && !refusal_of("source", c.name))
      gave_up.insert(c.name);
  for (const auto& [es_name, doc] : draft.sources) {
    const auto& es = std::get<dsl::event_source>(doc->body);
    auto old = running_sources.find(es_name);
    bool known = old != running_sources.end();
    bool rest_changed =
      !known || print_of(old->second, "eventsource") != print_of(doc->fingerprints, "eventsource");
    auto manifest = std::make_shared<const dsl::event_source>(es);
    for (const auto& e : manifest->spec.events) {
      auto key = "event/" + e.name;
      auto status_name = es_name + "/" + e.name;
      auto label = "source/" + status_name;
      bool existed = known && old->second.count(key);
      if (existed && !rest_changed && old->second.at(key) == print_of(doc->fingerprints, key)
          && !gave_up.count(status_name)) {
        draft.result.unchanged.push_back(label);
        continue;
      }
      auto spec = source_child(manifest, e);
      (existed ? draft.result.restarted : draft.result.started).push_back(label);
      if (spec) {
        draft.step(existed ? action::replace : action::add, "source", status_name, std::move(*spec));
        draft.fresh_sources.insert(status_name);
      } else if (existed) {
        draft.step(action::remove, "source", status_name);
        draft.cannot_run.emplace_back("source", status_name);
      }
    }
  }
}

void engine::impl::diff_sensors(reload_draft& draft) {
  for (const auto& [name, old] : running_sensors) {
    if (draft.sensors.count(name))
      continue;
    draft.step(action::remove, "sensor", name);
    draft.result.stopped.push_back("sensor/" + name);
    draft.removed_sensors.push_back(name);
    for (const auto& t : parts(old, "trigger/"))
      draft.stale_triggers.push_back(name + "/" + t);
  }
  for (const auto& [name, doc] : draft.sensors) {
    const auto& sensor = std::get<dsl::sensor>(doc->body);
    auto old = running_sensors.find(name);
    auto label = "sensor/" + name;
    if (old != running_sensors.end() && old->second == doc->fingerprints) {
      draft.result.unchanged.push_back(label);
      // Its sources may have come or gone with the reload.
      explain_dependencies(sensor, warn_unresolved(*doc, draft.provided, false));
      continue;
    }
    std::shared_ptr<const sensor_setup> setup;
    auto spec =
      sensor_child(sensor, doc->fingerprints, warn_unresolved(*doc, draft.provided), &setup);
    if (old == running_sensors.end()) {
      draft.result.started.push_back(label);
      if (spec)
        draft.step(action::add, "sensor", name, std::move(*spec));
      continue;
    }
    draft.result.reconfigured.push_back(label);
    for (const auto& t : parts(old->second, "trigger/"))
      if (!spec || !doc->fingerprints.count("trigger/" + t))
        draft.stale_triggers.push_back(name + "/" + t);
    if (!spec) {
      draft.step(action::remove, "sensor", name);
      draft.cannot_run.emplace_back("sensor", name);
      continue;
    }
    std::vector<std::pair<std::string, std::string>> routes;
    for (const auto& dep : sensor.spec.dependencies)
      routes.emplace_back(dep.event_source_name, dep.event_name);
    draft.step(action::reconfigure, "sensor", name, std::move(*spec));
    // Routes of new dependencies exist before the sensor takes the new setup (subscribing is
    // idempotent), so it misses none of their events; the sensor drops the routes it no
    // longer needs.
    draft.steps->back().notify = [bus = bus, setup, routes](caf::event_based_actor* root,
                                                           const caf::actor& child) {
      for (const auto& [source, subject] : routes)
        bus->subscribe(source, subject, child);
      root->send(child, reconfigure_sensor{setup});
    };
  }
}

void engine::impl::remember(const std::vector<dsl::document>& documents) {
  running_sources.clear();
  running_sensors.clear();
  running_buses.clear();
  for (const auto& doc : documents) {
    if (std::holds_alternative<dsl::event_source>(doc.body))
      running_sources[doc.name] = doc.fingerprints;
    else if (std::holds_alternative<dsl::sensor>(doc.body))
      running_sensors[doc.name] = doc.fingerprints;
    else if (std::holds_alternative<dsl::event_bus>(doc.body))
      running_buses[doc.name] = print_of(doc.fingerprints, "eventbus");
  }
}

reload_result engine::reload(const std::vector<dsl::document>& documents) {
  auto& d = *impl_;
  std::lock_guard guard{d.reload_mutex};
  if (!d.planned || d.stopped)
    throw std::logic_error("reload needs a running engine");
  reload_draft draft{documents};
  d.check(documents);
  auto before = d.status.snapshot();
  d.diff_sources(draft);
  d.diff_sensors(draft);
  for (const auto& [name, doc] : draft.buses)
    if (auto it = d.running_buses.find(name);
        it == d.running_buses.end() || it->second != print_of(doc->fingerprints, "eventbus"))
      draft.result.needs_restart.push_back("eventbus/" + name);
  for (const auto& [name, print] : d.running_buses)
    if (!draft.buses.count(name))
      draft.result.needs_restart.push_back("eventbus/" + name);
  std::set<std::pair<std::string, std::string>> fresh;
  for (const auto& name : draft.fresh_sources)
    fresh.emplace("source", name);
  keep_phases(d.status, before, fresh);
  std::vector<component_status> failed;
  for (const auto& c : d.status.snapshot())
    for (const auto& [kind, name] : draft.cannot_run)
      if (c.kind == kind && c.name == name)
        failed.push_back(c);

  if (apply_steps(*d.system, d.root, draft.steps))
    await_sources(d.status, draft.fresh_sources);

  for (const auto& c : failed)
    d.status.set(c.kind, c.name, c.phase, c.last_error);
  for (const auto& t : draft.stale_triggers)
    d.status.remove("trigger", t);
  for (const auto& name : draft.removed_sensors) {
    {
      std::lock_guard explain_guard{d.explain_mutex};
      d.explain_logs.erase(name);
    }
    d.forget_sensor(name);
  }
  // The EventBus that runs is the one the process started with.
  auto buses = std::move(d.running_buses);
  d.remember(documents);
  d.running_buses = std::move(buses);

  auto& result = draft.result;
  spdlog::info("reload: {}", result.summary());
  if (!result.started.empty())
    spdlog::info("reload: started {}", joined(result.started));
  if (!result.stopped.empty())
    spdlog::info("reload: stopped {}", joined(result.stopped));
  if (!result.restarted.empty())
    spdlog::info("reload: restarted {}", joined(result.restarted));
  if (!result.reconfigured.empty())
    spdlog::info("reload: reconfigured {}", joined(result.reconfigured));
  for (const auto& bus : result.needs_restart)
    spdlog::warn("reload: {} changed; the change takes effect when ganglion restarts", bus);
  return result;
}

std::string reload_result::summary() const {
  auto line = fmt::format("{} started, {} stopped, {} restarted, {} reconfigured, {} unchanged",
                          started.size(), stopped.size(), restarted.size(), reconfigured.size(),
                          unchanged.size());
  if (!needs_restart.empty())
    line += fmt::format("; needs a restart: {}", joined(needs_restart));
  return line;
}

} // namespace ganglion::core
