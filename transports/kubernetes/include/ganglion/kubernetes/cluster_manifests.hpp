#pragma once

// Cluster mode's input: the EventSource, Sensor and EventBus objects (argoproj.io/v1alpha1) of
// some namespaces, listed and watched through the API.

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "ganglion/kubernetes/client.hpp"
#include "ganglion/kubernetes/watch.hpp"

namespace ganglion::kubernetes {

/// One EventSource, Sensor or EventBus of the cluster, as cluster mode loads it.
struct cluster_object {
  std::string kind; ///< `EventSource`, `Sensor` or `EventBus`
  std::string namespace_name;
  std::string name;
  std::string uid;
  /// The object as JSON without `status`, `metadata.managedFields` and
  /// `metadata.resourceVersion`: what is loaded, and what a change is compared on (a write of
  /// the status alone is no change).
  std::string manifest;
  /// Its `status` as the API last showed it (JSON text, `{}` when none).
  std::string status = "{}";

  /// How diagnostics name it: `Sensor default/webhook`.
  std::string label() const;
  /// Its status subresource: `/apis/argoproj.io/v1alpha1/namespaces/<ns>/sensors/<name>/status`.
  std::string status_path() const;
};

/// Settings of cluster mode's watches.
struct cluster_options {
  /// The namespaces watched; empty: every namespace (`--all-namespaces`).
  std::vector<std::string> namespaces;
  /// A burst of changes within this time is one call of `on_change`.
  std::chrono::milliseconds debounce{300};
  /// Backoff of a failed list or watch.
  watch_options watch{};
};

/// How a watched collection fares: `error` empty once it is listed, else the API's message
/// (`list /apis/argoproj.io/v1alpha1/namespaces/ns/sensors: HTTP 403: …`).
using collection_health =
  std::function<void(const std::string& collection, const std::string& error)>;

/// Lists and watches the `eventsources`, `sensors` and `eventbus` collections of each namespace
/// (or of all), keeps the current objects, and calls `on_change` (debounced, on its own thread)
/// when an object appears, goes, or changes outside its status. A failed list or watch is
/// retried with backoff and reported to `on_health`. Runs until destroyed.
class cluster_manifests {
public:
  cluster_manifests(std::shared_ptr<api_client> client, cluster_options options,
                    std::function<void()> on_change, collection_health on_health = {});
  /// Stops the watches and the debounce thread.
  ~cluster_manifests();
  cluster_manifests(const cluster_manifests&) = delete;
  cluster_manifests& operator=(const cluster_manifests&) = delete;

  /// Waits until every collection was listed, or failed to be, once; false when `limit`
  /// passes first.
  bool wait_listed(std::chrono::milliseconds limit) const;
  /// The current objects, by kind, namespace and name.
  std::vector<cluster_object> objects() const;
  /// The client the watches use.
  const std::shared_ptr<api_client>& client() const noexcept;

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

/// The process's API client for `kubeconfig` (empty: `$KUBECONFIG`, `~/.kube/config`,
/// in-cluster), the one the triggers and sources share. Throws config_error.
std::shared_ptr<api_client> cluster_client(const std::string& kubeconfig);

} // namespace ganglion::kubernetes
