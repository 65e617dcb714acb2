#pragma once

#include <string>

#include "ganglion/dsl/model.hpp"

namespace ganglion::core {

/// The template as JSON text, for template-level parameters: the loaded manifest's, or, for a
/// trigger built in code, one made of `name`, `conditions` and each action's JSON.
std::string template_json(const dsl::trigger_template& t);

} // namespace ganglion::core
