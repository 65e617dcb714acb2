#pragma once

// Cluster mode's output: the `status.conditions` of each EventSource, Sensor and EventBus, as
// Argo's controller sets them, written through the status subresource.

#include <memory>
#include <string>
#include <vector>

#include "ganglion/kubernetes/client.hpp"
#include "ganglion/kubernetes/cluster_manifests.hpp"

namespace ganglion::kubernetes {

/// One condition of an object's status (Argo's `Condition`, without its time).
struct condition {
  std::string
    type; ///< `SourcesProvided`, `DependenciesProvided`, `TriggersProvided`, `Configured`, `Deployed`
  std::string status; ///< `True`, `False` or `Unknown`
  std::string reason{};
  std::string message{};

  bool operator==(const condition&) const = default;
};

/// What cluster mode knows of one object after a (re)load.
struct object_verdict {
  /// The first error that made the object invalid (it does not run), with its YAML path; both
  /// empty when it is valid.
  std::string error_path{};
  std::string error{};
  /// Why a valid object does not run (or not completely): a refused event or trigger, a failed
  /// component (`source es/e: …`); empty when it runs.
  std::string not_running{};
};

/// Argo's conditions of `kind` for `verdict`, in Argo's order:
/// EventSource `SourcesProvided` (reason `InvalidEventSource`), `Deployed`;
/// Sensor `DependenciesProvided` (`InvalidDependencies`), `TriggersProvided` (`InvalidTriggers`),
/// `Deployed`; EventBus `Configured` (`InvalidSpec`), `Deployed`. As in Argo, a Sensor whose
/// dependencies are invalid leaves `TriggersProvided` `Unknown`. `Deployed` is `False` with
/// reason `InvalidSpec` for an invalid object and `NotRunning` for one that does not run.
std::vector<condition> conditions_of(const std::string& kind, const object_verdict& verdict);

/// Writes objects' conditions through their status subresource (a JSON merge patch of
/// `status.conditions`), only when they differ from what the object's status shows and from
/// the last write; `lastTransitionTime` is kept for a condition whose status did not change.
/// Requests are asynchronous; a failure is logged (once per object and message). Thread-safe.
class status_writer {
public:
  explicit status_writer(std::shared_ptr<api_client> client);

  /// Sets the conditions of `object` (its `status` is the API's last view of it).
  void write(const cluster_object& object, const std::vector<condition>& conditions);

private:
  struct state;
  std::shared_ptr<api_client> client_;
  /// Shared with the requests in flight, which may complete after this writer is gone.
  std::shared_ptr<state> state_;
};

} // namespace ganglion::kubernetes
