#include "trigger/template_json.hpp"

#include <nlohmann/json.hpp>

namespace ganglion::core {

std::string template_json(const dsl::trigger_template& t) {
  if (!t.json.empty())
    return t.json;
  nlohmann::json out{{"name", t.name}, {"conditions", t.conditions}};
  for (const auto& action : t.actions)
    out[action.type] = action.json.empty() ? nlohmann::json::object()
                                           : nlohmann::json::parse(action.json, nullptr, false);
  return out.dump();
}

} // namespace ganglion::core
