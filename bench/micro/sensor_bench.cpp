// The full per-event sensor pipeline through the real sensor_core: route, parse once (simdjson
// DOM), 3 data filters + 1 expr filter, condition, firing — what the sensor actor runs per event,
// with the engine's metrics counters. Baseline: baseline_simdjson_dom_parse (the parse alone);
// sensor_pipeline_parse_only is the same sensor without filters (parse + route + condition).

#include <benchmark/benchmark.h>

#include <chrono>

#include "fixtures.hpp"
#include "ganglion/core/metrics.hpp"
#include "sensor/sensor_core.hpp"

namespace ganglion::bench {
namespace {

using namespace std::chrono_literals;

void run_sensor(benchmark::State& state, bool with_filters) {
  auto manifest = load_sensor(sensor_yaml("pipeline", corpus_event_name, with_filters));
  core::metrics_registry metrics;
  core::sensor_core sensor(manifest, &metrics, core::sensor_options{.dedup_window = 0ms});
  const auto& events = corpus_events();
  std::vector<core::firing> out;
  std::size_t next = 0;
  for (auto _ : state) {
    sensor.process(events[next], out);
    if (out.size() != 1) {
      state.SkipWithError("the event did not fire the trigger");
      break;
    }
    out.clear();
    next = next_index(next, events.size());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(corpus_bytes(state.iterations()));
}

void sensor_pipeline(benchmark::State& state) {
  run_sensor(state, true);
}

void sensor_pipeline_parse_only(benchmark::State& state) {
  run_sensor(state, false);
}

} // namespace

BENCHMARK(sensor_pipeline);
BENCHMARK(sensor_pipeline_parse_only);

} // namespace ganglion::bench
