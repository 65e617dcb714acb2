#pragma once

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "ganglion/dsl/model.hpp"
#include "load/load_context.hpp"
#include "validate/validate_common.hpp"

namespace ganglion::dsl::detail {

/// Argo's validateHTTPTrigger for `template.http` at `path`.
void validate_http_action(const http_trigger& http, const std::string& path,
                          const parameter_scope& scope, const load_context& cx);

/// Argo's validateKafkaTrigger plus ganglion's rules for `template.kafka` at `path`.
void validate_kafka_action(const kafka_trigger& kafka, const std::string& path,
                           const parameter_scope& scope, const load_context& cx);

/// Argo's validateNATSTrigger plus ganglion's rules for `template.nats` at `path`.
void validate_nats_action(const nats_trigger& nats, const std::string& path,
                          const parameter_scope& scope, const load_context& cx);

/// Argo's rules for the action types ganglion does not model (k8s, argoWorkflow, awsLambda,
/// slack, openWhisk, custom, email), on their JSON spec at `path`.
void validate_unmodelled_action(const std::string& type, const nlohmann::json& spec,
                                const std::string& path, const parameter_scope& scope,
                                const load_context& cx);

} // namespace ganglion::dsl::detail
