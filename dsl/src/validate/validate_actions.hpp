#pragma once

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "ganglion/dsl/model.hpp"
#include "ganglion/dsl/kind/load_context.hpp"
#include "ganglion/dsl/kind/rules.hpp"

namespace ganglion::dsl::detail {

/// Argo's rules for the action types ganglion does not model (pulsar), on their JSON spec at
/// `path`: their `parameters[]`, compiled at warning level.
void validate_unmodelled_action(const std::string& type, const nlohmann::json& spec,
                                const std::string& path, const parameter_scope& scope,
                                const load_context& cx);

} // namespace ganglion::dsl::detail
