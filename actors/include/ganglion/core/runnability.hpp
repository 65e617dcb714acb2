#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ganglion/core/secrets.hpp"
#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"
#include "ganglion/dsl/diagnostic.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::core {

/// What decides whether a loaded object can run: the registered kinds and the secrets.
struct runnability_context {
  const source_registry* sources = nullptr;
  const trigger_registry* triggers = nullptr;
  /// Where secrets are read from (`<dir>/<name>/<key>`); empty: none given.
  std::string secrets_dir;
  /// When set, secrets are looked up in it (a backend such as Kubernetes Secrets) instead of
  /// `secrets_dir`.
  const secret_store* secrets = nullptr;
};

/// One object `run` refuses before starting anything, and why.
struct refusal {
  std::string kind; ///< `source` or `trigger`, as in /v1/status
  std::string name; ///< `<eventsource>/<event>` or `<sensor>/<trigger>`, as in /v1/status
  /// Where and why, e.g. `a.yaml:12:9: spec.triggers[0].template.k8s: not run by ganglion yet …`.
  dsl::diagnostic why;

  /// What `run` shows (log, /v1/status): `file:line:col: path: message`, without the
  /// `warning:` that `validate` prints.
  std::string text() const;
};

/// Every object of `documents` that `run` will not run, found without starting anything: kinds
/// ganglion does not run yet, a secret with no `--secrets-dir` or no file, and a webhook port
/// and path already served by another event. Each comes once, located, as a warning; in document order.
std::vector<refusal> check_runnability(const std::vector<dsl::document>& documents,
                                       const runnability_context& context);

/// `N trigger(s) and M source(s) will not run` for `refusals`; empty when there are none.
std::string runnability_summary(const std::vector<refusal>& refusals);

} // namespace ganglion::core
