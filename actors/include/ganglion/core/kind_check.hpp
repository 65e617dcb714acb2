#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "ganglion/core/source.hpp"
#include "ganglion/core/trigger.hpp"

namespace ganglion::core {

/// A kind's check step on its own model: `check(model)` on what the kind's spec step read for
/// `ctx` (a source_context or a trigger_context). A manifest loaded without that step is the
/// only problem (spec_of's message), so `check` always has a model.
template <class Model, class Context, class Check>
std::vector<std::string> check_spec(const Context& ctx, Check&& check) {
  const Model* model = nullptr;
  try {
    model = &spec_of<Model>(ctx);
  } catch (const std::runtime_error& e) {
    return {e.what()};
  }
  return std::forward<Check>(check)(*model);
}

} // namespace ganglion::core
