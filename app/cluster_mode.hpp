#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "ganglion/core/command_options.hpp"
#include "ganglion/core/engine.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/load.hpp"

namespace ganglion::app {

/// `run --from-cluster`: the EventSources, Sensors and EventBus of the cluster's namespaces,
/// watched and run beside the `-f` files. Each object is validated alone: an invalid one is
/// left out (logged, and `False` in its status) and never stops the others. After each start
/// or reload, and every few seconds, each object's `status.conditions` is written as Argo's
/// controller writes them (only when they changed).
class cluster_mode {
public:
  /// Starts the watches (the `--namespace`s, every namespace, or the kubeconfig context's)
  /// and waits until each collection was listed or failed once. Throws std::runtime_error
  /// when there is no Kubernetes configuration or ganglion is built without Kubernetes.
  cluster_mode(const run_options& options, dsl::load_options load);
  /// Stops the watches and the status writes.
  ~cluster_mode();
  cluster_mode(const cluster_mode&) = delete;
  cluster_mode& operator=(const cluster_mode&) = delete;

  /// The valid documents of the cluster's objects; an object whose kind and name a document of
  /// `files` (or an earlier object) holds is invalid too. Invalid ones are logged once.
  std::vector<dsl::document> documents(const std::vector<dsl::document>& files);

  /// The `status` (JSON text) the API last showed for the object `document` was loaded from
  /// by documents(); `{}` when it is none of the cluster's objects.
  std::string status_of(const dsl::document& document) const;

  /// The secret store of cluster mode: the Kubernetes Secrets of every namespace served, read
  /// through the API and watched; the engine binds each object to its namespace
  /// (secret_store::for_namespace). Secrets a consumer needs as files are written to a
  /// private temp directory, rewritten when the Secret changes and removed at exit.
  std::shared_ptr<const core::secret_store> secrets() const;

  /// The ConfigMaps EventSources keep state in (a calendar's `persistence.configMap`), each
  /// read and written as its EventSource acts; `settings` are the kinds' options (kubeconfig,
  /// object identity).
  core::config_map_stores config_maps(const core::option_values& settings) const;

  /// From now on: watch failures show in `engine`'s /v1/status (kind `cluster`), a change of
  /// the objects calls `reload`, and the status of the objects is written now and every 5 s.
  void attach(core::engine& engine, std::function<void()> reload);

  /// Writes each object's conditions from its validation and `engine`'s refusals and phases.
  void publish();

private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

} // namespace ganglion::app
