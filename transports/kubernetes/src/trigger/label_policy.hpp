#pragma once

// `policy.k8s` (Argo's pkg/sensors/policy/resource-labels.go): after the operation, the object
// is read again with a backoff until its labels hold every label of the policy.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <string>

#include "ganglion/dsl/model/trigger.hpp"
#include "ganglion/kubernetes/client.hpp"

namespace ganglion::kubernetes::detail {

/// A sleep that stop() cuts short, for the waits of executions when their trigger stops.
class stoppable_sleep {
public:
  /// Waits `d`; false when stopped (before or during the wait).
  bool sleep_for(std::chrono::nanoseconds d);
  /// Ends every wait, now and later.
  void stop();
  bool stopped() const;

private:
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  bool stopped_ = false;
};

/// How a policy wait ended.
enum class label_wait { matched, timed_out, failed };

/// Reads `object_path` until its labels hold every entry of `policy.labels`: one read per step of
/// `policy.backoff` (Argo's default: 5 steps 1 s apart, jitter 1), as k8s wait.ExponentialBackoff
/// does. A read that fails ends the wait (`failed`, `error` says why); so does `sleep` stopping.
label_wait wait_for_labels(api_client& client, const std::string& object_path,
                           const dsl::k8s_resource_policy& policy, stoppable_sleep& sleep,
                           std::string& error);

} // namespace ganglion::kubernetes::detail
