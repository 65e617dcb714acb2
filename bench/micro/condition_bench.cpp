// Trigger condition evaluation (dsl::condition, compiled once) over the dependencies' presence
// flags — the last step of the per-event pipeline, after the filters. No parse is involved;
// compare with baseline_simdjson_dom_parse for scale. Each case cycles over presence patterns
// that all satisfy the condition; bytes are those of the corpus events the evaluations stand for.

#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

#include "fixtures.hpp"
#include "ganglion/dsl/expr/condition.hpp"

namespace ganglion::bench {
namespace {

using presence = std::vector<std::uint8_t>;

void condition_eval(benchmark::State& state, const char* text, std::vector<presence> patterns) {
  auto condition = dsl::condition::parse(text);
  for (const auto& p : patterns)
    if (p.size() != condition.variables().size()) {
      state.SkipWithError("a pattern does not match the condition's variables");
      return;
    }
  std::size_t next = 0;
  std::int64_t satisfied = 0;
  for (auto _ : state) {
    satisfied += condition.evaluate(patterns[next]);
    next = next + 1 == patterns.size() ? 0 : next + 1;
  }
  if (satisfied != state.iterations())
    state.SkipWithError("a pattern did not satisfy the condition");
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(corpus_bytes(state.iterations()));
}

constexpr const char* sixteen =
  "(d01 && d02 && d03 && d04) || (d05 && d06 && !d07 && d08) || "
  "((d09 || d10) && (d11 || d12)) || (d13 && d14 && d15 && d16)";

} // namespace

BENCHMARK_CAPTURE(condition_eval, and_2, "a && b", std::vector<presence>{{1, 1}});
BENCHMARK_CAPTURE(condition_eval, or_and_3, "(a || b) && c",
                  std::vector<presence>{{1, 0, 1}, {0, 1, 1}, {1, 1, 1}});
// Each pattern satisfies a different group, so evaluation walks 1 to 4 of them.
BENCHMARK_CAPTURE(condition_eval, vars_16, sixteen,
                  std::vector<presence>{
                    {1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
                    {1, 0, 1, 0, 1, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0},
                    {0, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 0, 0, 0, 0, 0},
                    {1, 1, 1, 0, 1, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1},
                  });

} // namespace ganglion::bench
