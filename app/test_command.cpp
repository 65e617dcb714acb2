// `ganglion test`: a dry run of sensors against event files, with no side effects.

#include <cstdio>

#include "commands.hpp"
#include "test_events.hpp"
#include "ganglion/core/dry_run.hpp"
#include "ganglion/dsl/load.hpp"
#include "kinds.hpp"

namespace ganglion::app {

int test_command(const test_options& options) {
  auto registered =
    register_kinds(std::make_shared<http::runtime>(),
                   settings_of(options.kind_options, options.kubeconfig, {}));
  auto loaded = dsl::load_manifests(options.files, load_options_for(registered));
  for (const auto& d : loaded.diagnostics)
    std::fprintf(stderr, "%s\n", d.to_string().c_str());
  if (dsl::has_errors(loaded.diagnostics))
    return 1;
  std::vector<core::event> events;
  std::vector<std::string> labels;
  try {
    for (const auto& path : options.events) {
      events.push_back(read_event_file(path));
      labels.push_back(path);
    }
    if (!options.body.empty()) {
      events.push_back(read_body_event(options, loaded.documents));
      labels.push_back(options.body);
    }
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "%s\n", ex.what());
    return 1;
  }
  core::dry_run run{loaded.documents, registered.triggers, options.secrets_dir};
  for (std::size_t i = 0; i < events.size(); ++i) {
    std::printf("event %zu (%s): source=%s subject=%s id=%s\n", i + 1, labels[i].c_str(),
                events[i].source.c_str(), events[i].subject.c_str(), events[i].id.c_str());
    if (!options.body.empty())
      std::printf("  data: %s\n", events[i].data.c_str());
    std::fputs(run.process(std::move(events[i])).c_str(), stdout);
  }
  if (auto failed = run.failed_firings(); failed > 0) {
    std::fprintf(stderr, "%zu firing(s) of triggers that cannot run\n", failed);
    return 3;
  }
  return 0;
}

} // namespace ganglion::app
