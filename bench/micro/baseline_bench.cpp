// The baselines: simdjson parsing the corpus. baseline_simdjson_dom_parse is the figure every
// matching benchmark is divided by — the DOM parse the sensor core does once per event, with the
// same call (dom::parser::parse of the event's std::string data). baseline_simdjson_ondemand_scan
// is for information: on-demand reading of only the four fields the pipeline's filters read.

#include <benchmark/benchmark.h>

#include <simdjson.h>

#include "fixtures.hpp"

namespace ganglion::bench {
namespace {

void baseline_simdjson_dom_parse(benchmark::State& state) {
  const auto& events = corpus_events();
  simdjson::dom::parser parser;
  std::size_t next = 0;
  for (auto _ : state) {
    simdjson::dom::element doc;
    if (parser.parse(events[next]->data).get(doc)) {
      state.SkipWithError("parse failed");
      break;
    }
    benchmark::DoNotOptimize(doc);
    next = next_index(next, events.size());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(corpus_bytes(state.iterations()));
}

void baseline_simdjson_ondemand_scan(benchmark::State& state) {
  std::vector<simdjson::padded_string> docs;
  for (const auto& d : corpus_data())
    docs.emplace_back(d);
  simdjson::ondemand::parser parser;
  std::size_t next = 0;
  for (auto _ : state) {
    auto doc = parser.iterate(docs[next]);
    std::string_view action;
    std::int64_t id = 0;
    bool admin = true;
    std::string_view label;
    simdjson::ondemand::object body;
    simdjson::ondemand::object sender;
    if (doc["body"].get(body) || body["action"].get(action) || body["sender"].get(sender)
        || sender["id"].get(id) || sender["site_admin"].get(admin)
        || body["labels"].at(0)["name"].get(label)) {
      state.SkipWithError("a field is missing");
      break;
    }
    benchmark::DoNotOptimize(action);
    benchmark::DoNotOptimize(id);
    benchmark::DoNotOptimize(admin);
    benchmark::DoNotOptimize(label);
    next = next_index(next, docs.size());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(corpus_bytes(state.iterations()));
}

} // namespace

BENCHMARK(baseline_simdjson_dom_parse);
BENCHMARK(baseline_simdjson_ondemand_scan);

} // namespace ganglion::bench
