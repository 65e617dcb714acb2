#include "report.hpp"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "progress.hpp"

namespace ganglion::loadgen {

namespace {

double per_second(std::uint64_t n, double seconds) {
  return seconds > 0 ? static_cast<double>(n) / seconds : 0.0;
}

std::string percentiles_line(const histogram& h, bool with_mean) {
  if (h.count() == 0)
    return "no samples";
  auto line = fmt::format("p50 {} ms  p90 {} ms  p99 {} ms  p99.9 {} ms  max {} ms",
                          format_ms(h.percentile(50)), format_ms(h.percentile(90)),
                          format_ms(h.percentile(99)), format_ms(h.percentile(99.9)),
                          format_ms(h.max()));
  if (with_mean)
    line += fmt::format("  mean {} ms", format_ms(static_cast<std::int64_t>(h.mean())));
  return line;
}

double ms(double ns) {
  return std::round(ns / 1e3) / 1e3;
}

nlohmann::json latency_json(const histogram& h) {
  if (h.count() == 0)
    return nullptr;
  auto at = [&](double p) { return ms(static_cast<double>(h.percentile(p))); };
  return {{"p50", at(50)},          {"p90", at(90)},
          {"p99", at(99)},          {"p999", at(99.9)},
          {"max", ms(static_cast<double>(h.max()))}, {"mean", ms(h.mean())}};
}

} // namespace

std::string format_table(const run_results& r) {
  const auto& q = r.requests;
  auto mode = r.target_rate > 0 ? fmt::format("open loop at {:g} req/s", r.target_rate)
                                : std::string("closed loop");
  auto threads = r.threads > 1 ? fmt::format(", {} threads", r.threads) : std::string();
  std::string out = fmt::format("ganglion-loadgen  POST {}  {} connections{}, {}, {:.1f} s\n",
                                r.url, r.connections, threads, mode, r.duration_s);
  out += fmt::format("  requests      {} ok   {} 4xx   {} 5xx ({} saturated)   {} errors", q.ok,
                     q.client_error, q.server_error, q.saturated, q.errors);
  if (q.timeouts > 0)
    out += fmt::format(" ({} timeouts)", q.timeouts);
  if (q.other > 0)
    out += fmt::format("   {} other", q.other);
  out += "\n";
  out += fmt::format("  throughput    {:.0f} req/s", per_second(q.ok, r.duration_s));
  if (r.target_rate > 0)
    out += fmt::format("   sent {:.0f} req/s of {:g} target, backlog max {}, unsent {}",
                       per_second(q.sent, r.duration_s), r.target_rate, q.backlog_max, q.unsent);
  out += "\n";
  out += fmt::format("  latency       {}\n", percentiles_line(r.latency, true));
  if (r.e2e) {
    const auto& e = *r.e2e;
    out += fmt::format("  end to end    {} arrived  {} missing  {} duplicate  {} unmatched\n",
                       e.counts.arrived, e.missing, e.counts.duplicate, e.counts.unmatched);
    out += fmt::format("                {}\n", percentiles_line(e.counts.latency, false));
  }
  return out;
}

nlohmann::json to_json(const run_results& r) {
  const auto& q = r.requests;
  nlohmann::json j;
  j["url"] = r.url;
  j["mode"] = r.target_rate > 0 ? "open" : "closed";
  j["connections"] = r.connections;
  j["threads"] = r.threads;
  j["duration_s"] = r.duration_s;
  j["warmup_s"] = r.warmup_s;
  j["target_rate"] = r.target_rate;
  j["requests"] = {{"ok", q.ok},           {"4xx", q.client_error}, {"5xx", q.server_error},
                   {"saturated", q.saturated}, {"other", q.other},   {"errors", q.errors},
                   {"timeouts", q.timeouts}};
  j["throughput_rps"] = per_second(q.ok, r.duration_s);
  j["sent_rps"] = per_second(q.sent, r.duration_s);
  j["backlog_max"] = q.backlog_max;
  j["unsent"] = q.unsent;
  j["connects"] = r.connects;
  j["latency_ms"] = latency_json(r.latency);
  if (!r.e2e) {
    j["e2e"] = nullptr;
    return j;
  }
  const auto& e = *r.e2e;
  j["e2e"] = {{"sink_url", e.sink_url},
              {"arrived", e.counts.arrived},
              {"missing", e.missing},
              {"duplicate", e.counts.duplicate},
              {"unmatched", e.counts.unmatched},
              {"warmup", e.counts.warmup},
              {"drain_s", e.drain_s},
              {"latency_ms", latency_json(e.counts.latency)}};
  return j;
}

} // namespace ganglion::loadgen
