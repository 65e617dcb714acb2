#include "client/request_metrics.hpp"

#include "ganglion/core/metrics.hpp"

namespace ganglion::kubernetes::detail {

void request_metrics::record(const std::string& verb, long status,
                             std::chrono::steady_clock::duration took) {
  if (!registry_)
    return;
  auto code = status == 0 ? std::string("error") : std::to_string(status);
  registry_
    ->get_counter("ganglion_kubernetes_requests_total",
                  "Requests to the Kubernetes API by verb and status code (error: no response)",
                  {{"verb", verb}, {"code", code}})
    .inc();
  registry_
    ->get_histogram("ganglion_kubernetes_request_duration_seconds",
                    "Time from sending a request to the Kubernetes API to its response (a "
                    "watch: to its headers)",
                    {{"verb", verb}}, core::latency_buckets())
    .observe(std::chrono::duration<double>(took).count());
}

void request_metrics::watch_restart(const std::string& reason) {
  if (!registry_)
    return;
  registry_
    ->get_counter("ganglion_kubernetes_watch_restarts_total",
                  "Watches of the Kubernetes API started again, by reason (closed: the stream "
                  "ended; expired: 410 Gone, listed again; error)",
                  {{"reason", reason}})
    .inc();
}

} // namespace ganglion::kubernetes::detail
