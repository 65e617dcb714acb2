#pragma once

// A hot reload from its plan (engine_reload.cpp) to its answer (engine_reload_apply.cpp).

#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "engine/engine_root.hpp"
#include "ganglion/core/engine.hpp"
#include "ganglion/dsl/dependencies.hpp"

namespace ganglion::core {

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

  void step(reload_step::action what, const std::string& kind, const std::string& name,
            child_spec spec = {}) {
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

/// One reload: the manifests it applies (its draft points into them), what planning found and
/// whom to tell once it is applied.
struct reload_job {
  reload_job(std::vector<dsl::document> docs, engine::reload_done answer)
    : documents(std::move(docs)), draft(documents), done(std::move(answer)) {}
  reload_job(const reload_job&) = delete;
  reload_job& operator=(const reload_job&) = delete;

  std::vector<dsl::document> documents;
  reload_draft draft;
  /// Changed components whose new version cannot run, as planning left them in status.
  std::vector<component_status> failed;
  engine::reload_done done;
};

} // namespace ganglion::core
