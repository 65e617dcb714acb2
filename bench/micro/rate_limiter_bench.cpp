// A trigger's strict rate limit (core::rate_gate::try_admit, a sliding log of admissions) on a
// synthetic clock: `admit` runs at exactly the limit (1000/s, one call per millisecond, so every
// call admits and drops the oldest entry), `refuse` with the window full (every call answers how
// long to wait). Per firing, this is what a rateLimit adds before parameters and execution;
// compare with baseline_simdjson_dom_parse for scale. Bytes are those of the corpus events the
// calls stand for.

#include <benchmark/benchmark.h>

#include <chrono>

#include "trigger/delivery_policy.hpp"
#include "fixtures.hpp"

namespace ganglion::bench {
namespace {

using namespace std::chrono_literals;
using clock = core::rate_gate::clock;

void rate_limiter(benchmark::State& state, bool admit) {
  constexpr std::uint32_t limit = 1000;
  core::rate_gate gate(limit, 1s);
  auto now = clock::time_point{} + 1h;
  for (std::uint32_t i = 0; i < limit; ++i, now += 1ms)
    if (gate.try_admit(now)) {
      state.SkipWithError("the gate refused while filling");
      return;
    }
  const auto step = admit ? clock::duration{1ms} : clock::duration{0};
  if (!admit)
    now -= 1ms;
  for (auto _ : state) {
    auto wait = gate.try_admit(now);
    if (wait.has_value() == admit) {
      state.SkipWithError(admit ? "refused at the limit" : "admitted past the limit");
      break;
    }
    now += step;
  }
  state.SetItemsProcessed(state.iterations());
  state.SetBytesProcessed(corpus_bytes(state.iterations()));
}

} // namespace

BENCHMARK_CAPTURE(rate_limiter, admit, true);
BENCHMARK_CAPTURE(rate_limiter, refuse, false);

} // namespace ganglion::bench
