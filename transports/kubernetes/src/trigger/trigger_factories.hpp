#pragma once

#include <string>
#include <vector>

#include "ganglion/core/trigger.hpp"
#include "ganglion/kubernetes/transport.hpp"

namespace ganglion::kubernetes::detail {

/// The `k8s` trigger: its executor, check and spec steps.
core::trigger_factory make_k8s_trigger_factory(const options& opts);

/// The `argoWorkflow` trigger: its executor, check and spec steps.
core::trigger_factory make_workflow_trigger_factory(const options& opts);

struct artifact_location;

/// What `run` refuses in a k8s trigger, without creating it.
std::vector<std::string> k8s_trigger_problems(const core::trigger_context& ctx,
                                              const options& opts);

/// What `run` refuses in an argoWorkflow trigger (retry, args that do not map …).
std::vector<std::string> workflow_trigger_problems(const core::trigger_context& ctx,
                                                   const options& opts);

/// What `run` refuses in an object trigger of `type` (`k8s`, `argoWorkflow`), each message
/// naming it (`<type> trigger <sensor>/<trigger>: …`): no `source`, then `own` (the kind's own
/// rules, e.g. its operation), then trigger_scope_problems.
std::vector<std::string> object_trigger_problems(const core::trigger_context& ctx,
                                                 const options& opts, const std::string& type,
                                                 const artifact_location* source,
                                                 const std::vector<std::string>& own);

/// What opts.object_identity refuses in a trigger of `type` (`k8s`, `argoWorkflow`) without
/// calling the API: a service account name impersonation cannot use; in `namespace` mode, a
/// fixed `source` (`resource`, `inline`) whose metadata.namespace is not the sensor's.
std::vector<std::string> trigger_scope_problems(const core::trigger_context& ctx,
                                                const options& opts, const std::string& type,
                                                const artifact_location* source);

} // namespace ganglion::kubernetes::detail
