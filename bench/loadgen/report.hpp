#pragma once

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "results.hpp"

namespace ganglion::loadgen {

/// The human-readable summary printed at the end of a run.
std::string format_table(const run_results& r);

/// The results as a JSON object (the --json file): url, mode, connections, threads, duration_s,
/// warmup_s, target_rate, requests{ok,4xx,5xx,saturated,other,errors,timeouts}, throughput_rps,
/// sent_rps, backlog_max, unsent, connects, latency_ms{p50,p90,p99,p999,max,mean} (null without
/// a 2xx), and e2e (null without --sink) {sink_url, arrived, missing, duplicate, unmatched,
/// warmup, drain_s, latency_ms}.
nlohmann::json to_json(const run_results& r);

} // namespace ganglion::loadgen
