// One compiled filter of each kind on a corpus event whose data is already parsed: the cost a
// filter adds to the per-event parse (baseline_simdjson_dom_parse). Every event passes every
// filter; a rejection stops the benchmark with an error.

#include <benchmark/benchmark.h>

#include "fixtures.hpp"
#include "ganglion/dsl/filter/expr_filter.hpp"
#include "ganglion/dsl/filter/filter_eval.hpp"
#include "ganglion/dsl/script/lua_script.hpp"
#include "ganglion/dsl/filter/time_filter.hpp"

namespace ganglion::bench {
namespace {

template <class Filter>
void run_filter(benchmark::State& state, Filter&& evaluate) {
  parsed_corpus corpus;
  std::size_t next = 0;
  for (auto _ : state) {
    auto outcome = evaluate(corpus.views()[next]);
    if (!outcome.pass) {
      state.SkipWithError(("rejected: " + outcome.error + outcome.reason).c_str());
      break;
    }
    next = next_index(next, corpus.size());
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(corpus_bytes(state.iterations()));
}

void run_data_filter(benchmark::State& state, const dsl::data_filter& spec) {
  dsl::compiled_data_filter filter(spec);
  run_filter(state, [&](const dsl::event_view& e) { return filter.evaluate(e); });
}

dsl::data_filter templated_action_filter() {
  dsl::data_filter spec;
  spec.path = "body.action";
  spec.type = "string";
  spec.template_ = "{{ .Input | upper }}";
  spec.value = {"OPENED|PUSH|MERGE|SUCCEEDED|TICK|OBJECTCREATED|READING|COMPLETED"};
  return spec;
}

// Eight anchored values, one per corpus action: the event matches after 1 to 8 regexes.
dsl::data_filter listed_action_filter() {
  dsl::data_filter spec;
  spec.path = "body.action";
  spec.type = "string";
  spec.value = {"^opened$", "^push$", "^merge$", "^payment_intent.succeeded$", "^tick$",
                "^s3:ObjectCreated:Put$", "^reading$", "^completed$"};
  return spec;
}

void filter_data_string(benchmark::State& state) {
  run_data_filter(state, pipeline_filters().data.at(0));
}

void filter_data_number(benchmark::State& state) {
  run_data_filter(state, pipeline_filters().data.at(1));
}

void filter_data_bool(benchmark::State& state) {
  run_data_filter(state, pipeline_filters().data.at(2));
}

void filter_data_values(benchmark::State& state) {
  run_data_filter(state, listed_action_filter());
}

void filter_data_template(benchmark::State& state) {
  run_data_filter(state, templated_action_filter());
}

// The pipeline's three data filters together (dataLogicalOperator and).
void filter_data_pipeline(benchmark::State& state) {
  const auto& spec = pipeline_filters();
  dsl::compiled_data_filters filters(spec.data, spec.data_logical_operator);
  run_filter(state, [&](const dsl::event_view& e) { return filters.evaluate(e); });
}

void filter_expr(benchmark::State& state) {
  const auto& spec = pipeline_filters();
  dsl::compiled_expr_filters filters(spec.exprs, spec.expr_logical_operator);
  run_filter(state, [&](const dsl::event_view& e) { return filters.evaluate(e); });
}

void filter_context(benchmark::State& state) {
  dsl::event_context expected;
  expected.source = std::string(corpus_source);
  expected.subject = std::string(corpus_event_name);
  expected.type = "webhook";
  expected.datacontenttype = "application/json";
  run_filter(state, [&](const dsl::event_view& e) {
    return dsl::evaluate_context_filter(expected, e);
  });
}

// 12:13:14Z is 08:13:14 in New York (EDT), inside the window.
void filter_time(benchmark::State& state) {
  dsl::compiled_time_filter filter(dsl::time_filter{"06:00:00", "20:00:00", "America/New_York"});
  run_filter(state, [&](const dsl::event_view& e) { return filter.evaluate(e); });
}

void filter_script(benchmark::State& state) {
  dsl::compiled_script_filter filter(
    R"(return event.body.sender.id > 0 and event.body.action ~= "deleted")");
  run_filter(state, [&](const dsl::event_view& e) { return filter.evaluate(e); });
}

} // namespace

BENCHMARK(filter_data_string);
BENCHMARK(filter_data_number);
BENCHMARK(filter_data_bool);
BENCHMARK(filter_data_values);
BENCHMARK(filter_data_template);
BENCHMARK(filter_data_pipeline);
BENCHMARK(filter_expr);
BENCHMARK(filter_context);
BENCHMARK(filter_time);
BENCHMARK(filter_script);

} // namespace ganglion::bench
