// `ganglion test`: a dry run of sensors against event files, with no side effects.

#include <cstdio>
#include <fstream>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "ganglion/core/dry_run.hpp"
#include "ganglion/dsl/load.hpp"
#include "kinds.hpp"

namespace ganglion::app {

namespace {

/// Reads a CloudEvent from a JSON file: `source` and `subject` are required; `data` may be
/// any JSON value (kept as JSON text) or, with a non-JSON content type, a string.
core::event read_event(const std::string& path) {
  std::ifstream in{path};
  if (!in)
    throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& ex) {
    throw std::runtime_error(fmt::format("{}: not valid JSON: {}", path, ex.what()));
  }
  if (!doc.is_object())
    throw std::runtime_error(path + ": expected a CloudEvent object");
  auto field = [&](const char* key, std::string fallback) {
    auto it = doc.find(key);
    return it != doc.end() && it->is_string() ? it->get<std::string>() : fallback;
  };
  core::event e;
  e.source = field("source", "");
  e.subject = field("subject", "");
  if (e.source.empty() || e.subject.empty())
    throw std::runtime_error(path + ": \"source\" (EventSource name) and \"subject\" (event "
                                    "name) are required");
  e.id = field("id", core::new_event_id());
  e.type = field("type", "webhook");
  e.time = field("time", core::now_rfc3339());
  e.datacontenttype = field("datacontenttype", "application/json");
  e.specversion = field("specversion", "1.0");
  if (auto data = doc.find("data"); data != doc.end()) {
    bool json = e.datacontenttype == "application/json";
    e.data = !json && data->is_string() ? data->get<std::string>() : data->dump();
  }
  return e;
}

} // namespace

int test_command(const test_options& options) {
  auto loaded = dsl::load_manifests(options.files);
  for (const auto& d : loaded.diagnostics)
    std::fprintf(stderr, "%s\n", d.to_string().c_str());
  if (dsl::has_errors(loaded.diagnostics))
    return 1;
  std::vector<core::event> events;
  try {
    for (const auto& path : options.events)
      events.push_back(read_event(path));
  } catch (const std::exception& ex) {
    std::fprintf(stderr, "%s\n", ex.what());
    return 1;
  }
  auto registered = register_kinds(std::make_shared<http::runtime>());
  core::dry_run run{loaded.documents, registered.triggers, options.secrets_dir};
  for (std::size_t i = 0; i < events.size(); ++i) {
    std::printf("event %zu (%s): source=%s subject=%s id=%s\n", i + 1, options.events[i].c_str(),
                events[i].source.c_str(), events[i].subject.c_str(), events[i].id.c_str());
    std::fputs(run.process(std::move(events[i])).c_str(), stdout);
  }
  if (auto failed = run.failed_firings(); failed > 0) {
    std::fprintf(stderr, "%zu firing(s) of triggers that cannot run\n", failed);
    return 2;
  }
  return 0;
}

} // namespace ganglion::app
