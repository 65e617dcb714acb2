#pragma once

// Private: the three calls of one custom trigger execution (FetchResource, Execute,
// ApplyPolicy) on gRPC's callback API, and the executions a trigger has in flight.

#include <chrono>
#include <functional>
#include <memory>
#include <string>

#include <grpcpp/channel.h>

#include "ganglion/core/trigger.hpp"

namespace ganglion::grpc::detail {

/// Where a custom trigger's calls go.
struct custom_call_site {
  std::shared_ptr<::grpc::Channel> channel;
  std::string server; ///< serverURL, as errors show it
  std::string name;   ///< `custom trigger <sensor>/<trigger>`, the prefix of errors and logs
  std::chrono::milliseconds timeout{30000}; ///< deadline of each call
};

/// What one execution sends.
struct custom_call_plan {
  std::string resource; ///< FetchResource's request: the spec as YAML
  std::string payload;  ///< Execute's payload
  /// Turns the fetched resource into the one to execute (`custom.parameters`); throws
  /// std::runtime_error with the reason. Empty: the resource is executed as fetched.
  std::function<std::string(std::string)> prepare;
};

/// The executions of one custom trigger: each runs its calls without blocking the caller, and
/// reports once. Destroying it cancels those in flight, waits until each has reported and is
/// gone, and then lets the channel go (on the destroying thread, never on a gRPC one).
class custom_calls {
public:
  explicit custom_calls(custom_call_site site);
  ~custom_calls();
  custom_calls(const custom_calls&) = delete;
  custom_calls& operator=(const custom_calls&) = delete;

  /// Starts one execution: FetchResource, `plan.prepare`, Execute, ApplyPolicy. A failed call
  /// (any status but OK) fails it, naming the call, the server and the status; ApplyPolicy's
  /// `success: false` is logged as a warning and the execution succeeds (as Argo). `done` is
  /// called exactly once, from a gRPC thread (or this one when the trigger is stopping).
  void start(custom_call_plan plan, core::trigger_done done);

  struct shared; ///< what the executions share with this object

private:
  std::shared_ptr<shared> shared_;
};

/// The outcome of an execution whose three calls succeeded: `result` is
/// `{"response":…,"policy":{"success":…,"message":…}}`, the response as JSON when it is JSON,
/// else as a string (its size alone, as `responseBytes`, beyond 64 KiB).
core::trigger_outcome custom_outcome(const std::string& response, bool success,
                                     const std::string& message);

} // namespace ganglion::grpc::detail
