// The sensor's per-event matching cost: simdjson DOM parse of a webhook-shaped event's data
// (baseline) versus parse + three compiled data filters + condition evaluation.

#include <benchmark/benchmark.h>

#include <simdjson.h>

#include "ganglion/dsl/condition.hpp"
#include "ganglion/dsl/internal/filter_eval.hpp"

namespace {

// About 300 bytes, shaped like the data of an Argo webhook event.
constexpr std::string_view webhook_data =
  R"({"header":{"Content-Type":["application/json"],"User-Agent":["GitHub-Hookshot/4e5a1b2"],)"
  R"("X-Github-Event":["pull_request"]},"body":{"action":"opened","number":42,)"
  R"("pull_request":{"title":"Add sensor benchmarks","draft":false,"additions":120},)"
  R"("repository":{"full_name":"argoproj/argo-events","private":false}}})";

ganglion::dsl::data_filter make_filter(std::string path, std::string type,
                                       std::vector<std::string> values,
                                       std::string comparator = "") {
  ganglion::dsl::data_filter f;
  f.path = std::move(path);
  f.type = std::move(type);
  f.value = std::move(values);
  f.comparator = std::move(comparator);
  return f;
}

void parse_only(benchmark::State& state) {
  simdjson::dom::parser parser;
  for (auto _ : state) {
    simdjson::dom::element doc;
    auto error = parser.parse(webhook_data.data(), webhook_data.size(), true).get(doc);
    benchmark::DoNotOptimize(error);
    benchmark::DoNotOptimize(doc);
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(webhook_data.size()));
}

void parse_filter_condition(benchmark::State& state) {
  simdjson::dom::parser parser;
  ganglion::dsl::compiled_data_filters filters(
    {make_filter("body.action", "string", {"opened|synchronize"}),
     make_filter("body.pull_request.additions", "number", {"100"}, ">"),
     make_filter("body.repository.private", "bool", {"false"})},
    "");
  auto condition = ganglion::dsl::condition::parse("(pr || push) && tests-done");
  std::vector<std::uint8_t> present{1, 0, 1};
  ganglion::dsl::event_view view;
  view.datacontenttype = "application/json";
  view.data_raw = webhook_data;
  std::int64_t passed = 0;
  for (auto _ : state) {
    if (parser.parse(webhook_data.data(), webhook_data.size(), true).get(view.data)) {
      state.SkipWithError("parse failed");
      break;
    }
    view.data_is_json = true;
    auto outcome = filters.evaluate(view);
    passed += outcome.pass && condition.evaluate(present);
  }
  if (passed != state.iterations())
    state.SkipWithError("the filters or the condition did not pass");
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(state.iterations() * static_cast<std::int64_t>(webhook_data.size()));
}

} // namespace

BENCHMARK(parse_only);
BENCHMARK(parse_filter_condition);
