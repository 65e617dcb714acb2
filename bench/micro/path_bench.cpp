// gjson-style path lookups (dsl::json_path, compiled once) on the corpus parsed once: what one
// path of a data or expr filter costs on top of the parse. Baseline: baseline_simdjson_dom_parse.

#include <benchmark/benchmark.h>

#include "fixtures.hpp"
#include "ganglion/dsl/path/json_eval.hpp"
#include "ganglion/dsl/path/json_path.hpp"

namespace ganglion::bench {
namespace {

void path_extract(benchmark::State& state, const char* text) {
  parsed_corpus corpus;
  auto path = dsl::json_path::compile(text);
  std::size_t next = 0;
  for (auto _ : state) {
    auto result = dsl::evaluate(path, corpus.views()[next].data);
    if (!result.exists()) {
      state.SkipWithError("the path does not exist in a corpus event");
      break;
    }
    benchmark::DoNotOptimize(result.element());
    next = next_index(next, corpus.size());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(corpus_bytes(state.iterations()));
}

} // namespace

BENCHMARK_CAPTURE(path_extract, top_level, "body");
BENCHMARK_CAPTURE(path_extract, depth_3, "body.sender.login");
BENCHMARK_CAPTURE(path_extract, array_index, "body.labels.0.name");
BENCHMARK_CAPTURE(path_extract, header_index, "header.Content-Type.0");
BENCHMARK_CAPTURE(path_extract, wildcard, "body.sen*.login");
BENCHMARK_CAPTURE(path_extract, count, "body.labels.#");
BENCHMARK_CAPTURE(path_extract, each, "body.labels.#.name");
BENCHMARK_CAPTURE(path_extract, query, "body.labels.#(id>0).name");
BENCHMARK_CAPTURE(path_extract, modifier, "body.labels|@reverse|0.name");

} // namespace ganglion::bench
