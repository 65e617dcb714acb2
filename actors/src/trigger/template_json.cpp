#include "trigger/template_json.hpp"

#include <nlohmann/json.hpp>

namespace ganglion::core {

namespace {

/// A parameter as the manifest would spell it, for a trigger built in code.
nlohmann::json parameter_json(const dsl::trigger_parameter& p) {
  nlohmann::json src = nlohmann::json::object();
  auto put = [&src](const char* key, const std::string& value) {
    if (!value.empty())
      src[key] = value;
  };
  put("dependencyName", p.src.dependency_name);
  put("contextKey", p.src.context_key);
  put("contextTemplate", p.src.context_template);
  put("dataKey", p.src.data_key);
  put("dataTemplate", p.src.data_template);
  if (p.src.value)
    src["value"] = *p.src.value;
  if (p.src.use_raw_data)
    src["useRawData"] = true;
  nlohmann::json out{{"src", std::move(src)}, {"dest", p.dest}};
  if (!p.operation.empty())
    out["operation"] = p.operation;
  return out;
}

/// `list` as the `key` array of `object`, unless the object's JSON has one already.
void add_list(nlohmann::json& object, const char* key,
              const std::vector<dsl::trigger_parameter>& list) {
  if (list.empty() || !object.is_object() || object.contains(key))
    return;
  auto& out = object[key] = nlohmann::json::array();
  for (const auto& p : list)
    out.push_back(parameter_json(p));
}

} // namespace

std::string template_json(const dsl::trigger_template& t) {
  if (!t.json.empty())
    return t.json;
  nlohmann::json out{{"name", t.name}, {"conditions", t.conditions}};
  for (const auto& action : t.actions) {
    auto& object = out[action.type] =
      action.json.empty() ? nlohmann::json::object()
                          : nlohmann::json::parse(action.json, nullptr, false);
    add_list(object, "parameters", action.parameters);
    add_list(object, "payload", action.payload);
  }
  return out.dump();
}

} // namespace ganglion::core
