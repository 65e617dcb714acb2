// Hot reload: the new manifests are compared with the running ones part by part (by
// fingerprint), and only what changed is started, stopped, restarted or reconfigured — in one
// message to the root supervisor, so that no event sees half a reload.

#include <set>

#include <caf/all.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "engine/engine_impl.hpp"
#include "engine/reload_job.hpp"
#include "sensor/sensor_actor.hpp"

namespace ganglion::core {

namespace {

using prints = std::map<std::string, std::string>;
using action = reload_step::action;

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

} // namespace

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

void engine::impl::plan_reload(reload_job& job) {
  auto& draft = job.draft;
  check(job.documents);
  auto before = status.snapshot();
  diff_sources(draft);
  diff_sensors(draft);
  for (const auto& [name, doc] : draft.buses)
    if (auto it = running_buses.find(name);
        it == running_buses.end() || it->second != print_of(doc->fingerprints, "eventbus"))
      draft.result.needs_restart.push_back("eventbus/" + name);
  for (const auto& [name, print] : running_buses)
    if (!draft.buses.count(name))
      draft.result.needs_restart.push_back("eventbus/" + name);
  std::set<std::pair<std::string, std::string>> fresh;
  for (const auto& name : draft.fresh_sources)
    fresh.emplace("source", name);
  keep_phases(status, before, fresh);
  for (const auto& c : status.snapshot())
    for (const auto& [kind, name] : draft.cannot_run)
      if (c.kind == kind && c.name == name)
        job.failed.push_back(c);
}

void engine::impl::finish_reload(reload_job& job) {
  auto& draft = job.draft;
  for (const auto& c : job.failed)
    status.set(c.kind, c.name, c.phase, c.last_error);
  for (const auto& t : draft.stale_triggers)
    status.remove("trigger", t);
  for (const auto& name : draft.removed_sensors) {
    {
      std::lock_guard explain_guard{explain_mutex};
      explain_logs.erase(name);
    }
    forget_sensor(name);
  }
  // The EventBus that runs is the one the process started with.
  auto buses = std::move(running_buses);
  remember(job.documents);
  running_buses = std::move(buses);

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
