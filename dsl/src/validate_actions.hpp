#pragma once

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "ganglion/dsl/model.hpp"
#include "load_context.hpp"
#include "validate_common.hpp"

namespace ganglion::dsl::detail {

/// Argo's validateHTTPTrigger for `template.http` at `path`.
void validate_http_action(const http_trigger& http, const std::string& path,
                          const parameter_scope& scope, const load_context& cx);

/// Argo's rules for the action types ganglion does not run yet (k8s, argoWorkflow, awsLambda,
/// kafka, nats, slack, openWhisk, custom, email), on their JSON spec at `path`.
void validate_unmodelled_action(const std::string& type, const nlohmann::json& spec,
                                const std::string& path, const parameter_scope& scope,
                                const load_context& cx);

} // namespace ganglion::dsl::detail
