// Routing and matching cost versus the number of loaded sensors: N real sensor_cores (each with
// its own heap objects: compiled filters, simdjson parser, join state), one dependency each on
// ("bench", "event-<i>") with the pipeline's 3 data filters + 1 expr filter, and the
// route_index the embedded bus routes with. Per iteration one corpus event, addressed to a
// pseudo-random sensor (a pre-generated sequence spread over all N), is looked up and processed
// by that sensor's core, firing its trigger. The event itself is fresh as a just-received one
// (a few corpus events whose subject is rewritten); what grows with N is the sensors' state.
// Target: time(dependency_index/10000) / time(dependency_index/10) <= 1.5.
// dependency_index_parse_only/<N> is the same without filters (route + parse + condition), to
// tell the growth of the filters' state from the parser's and the routes'.
// Each population is built once per process and warmed with every corpus event, so parsers have
// their steady-state size; counters: rss_kb_per_sensor (resident memory per sensor, manifest
// included), build_s (compiling the N sensors).

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "fixtures.hpp"
#include "ganglion/core/metrics.hpp"
#include "bus/route_index.hpp"
#include "sensor/sensor_core.hpp"

namespace ganglion::bench {
namespace {

using namespace std::chrono_literals;

struct sensor_population {
  core::metrics_registry metrics;
  std::vector<dsl::sensor> manifests;
  std::vector<std::unique_ptr<core::sensor_core>> cores;
  core::route_index<core::sensor_core*> routes;
  /// subjects[i]: the eventName of sensor i's dependency.
  std::vector<std::string> subjects;
  /// Indexes of the sensors the benchmark sends events to, in order.
  std::vector<std::uint32_t> sequence;
  double build_seconds = 0;
  double rss_kb_per_sensor = 0;
  std::string error;
};

/// The corpus events, writable so that their subject can address any sensor.
struct event_ring {
  std::vector<std::shared_ptr<core::event>> events;
  std::vector<core::event_ptr> views;

  event_ring() {
    for (std::size_t i = 0; i < corpus_data().size(); ++i) {
      auto e = std::const_pointer_cast<core::event>(corpus_event(i, {}));
      events.push_back(e);
      views.push_back(e);
    }
  }

  /// Corpus event `slot`, addressed to `subject`.
  const core::event_ptr& addressed(std::size_t slot, const std::string& subject) {
    events[slot]->subject.assign(subject);
    return views[slot];
  }
};

bool warm(core::sensor_core& core, const std::string& subject, event_ring& ring) {
  std::vector<core::firing> out;
  for (std::size_t slot = 0; slot < ring.events.size(); ++slot) {
    core.process(ring.addressed(slot, subject), out);
    if (out.size() != 1)
      return false;
    out.clear();
  }
  return true;
}

std::unique_ptr<sensor_population> build_population(std::size_t n, bool with_filters) {
  auto p = std::make_unique<sensor_population>();
  const auto base = load_sensor(sensor_yaml("bench", "event", with_filters));
  for (std::size_t i = 0; i < n; ++i)
    p->subjects.push_back("event-" + std::to_string(i));
  std::mt19937 random(42);
  std::uniform_int_distribution<std::uint32_t> pick(0, static_cast<std::uint32_t>(n - 1));
  p->sequence.resize(1 << 16);
  for (auto& index : p->sequence)
    index = pick(random);

  auto rss_before = rss_kb();
  auto start = std::chrono::steady_clock::now();
  p->manifests.reserve(n);
  p->cores.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    auto& m = p->manifests.emplace_back(base);
    m.metadata.name = "bench-" + std::to_string(i);
    m.spec.dependencies.front().event_name = p->subjects[i];
    m.spec.triggers.front().template_.name = "fire-" + std::to_string(i);
    auto& core = *p->cores.emplace_back(std::make_unique<core::sensor_core>(
      m, &p->metrics, core::sensor_options{.dedup_window = 0ms}));
    for (const auto& [source, subject] : core.subscriptions())
      p->routes.at_or_add(source, subject).push_back(&core);
  }
  p->build_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  event_ring ring;
  for (std::size_t i = 0; i < n && p->error.empty(); ++i)
    if (!warm(*p->cores[i], p->subjects[i], ring))
      p->error = "sensor " + std::to_string(i) + " did not fire";
  p->rss_kb_per_sensor = static_cast<double>(rss_kb() - rss_before) / static_cast<double>(n);
  return p;
}

sensor_population& population(std::size_t n, bool with_filters) {
  static std::map<std::pair<std::size_t, bool>, std::unique_ptr<sensor_population>> built;
  auto& p = built[{n, with_filters}];
  if (!p)
    p = build_population(n, with_filters);
  return *p;
}

void run_population(benchmark::State& state, bool with_filters) {
  auto& p = population(static_cast<std::size_t>(state.range(0)), with_filters);
  if (!p.error.empty()) {
    state.SkipWithError(p.error.c_str());
    return;
  }
  event_ring ring;
  const std::size_t mask = p.sequence.size() - 1;
  std::vector<core::firing> out;
  std::size_t next = 0;
  std::size_t slot = 0;
  for (auto _ : state) {
    const auto& e = ring.addressed(slot, p.subjects[p.sequence[next]]);
    const auto* routed = p.routes.find(e->source, e->subject);
    if (!routed || routed->size() != 1) {
      state.SkipWithError("an event has no single route");
      break;
    }
    routed->front()->process(e, out);
    if (out.size() != 1) {
      state.SkipWithError("the event did not fire its sensor's trigger");
      break;
    }
    out.clear();
    next = (next + 1) & mask;
    slot = next_index(slot, ring.events.size());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(corpus_bytes(state.iterations()));
  state.counters["rss_kb_per_sensor"] = p.rss_kb_per_sensor;
  state.counters["build_s"] = p.build_seconds;
}

void dependency_index(benchmark::State& state) {
  run_population(state, true);
}

void dependency_index_parse_only(benchmark::State& state) {
  run_population(state, false);
}

} // namespace

BENCHMARK(dependency_index)->Arg(10)->Arg(1000)->Arg(10000);
BENCHMARK(dependency_index_parse_only)->Arg(10)->Arg(1000)->Arg(10000);

} // namespace ganglion::bench
