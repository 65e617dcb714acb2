#pragma once

#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "ganglion/dsl/model.hpp"
#include "ganglion/dsl/kind/load_context.hpp"

namespace ganglion::dsl::detail {

/// Argo's validate.go of the event's source type (amqp, github …) on its JSON spec,
/// the event being at `path` (`spec.<type>.<name>`).
void validate_unmodelled_source(const source_event& event, const std::string& path,
                                const load_context& cx);

} // namespace ganglion::dsl::detail
