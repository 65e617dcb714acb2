#include "validate/validate_actions.hpp"

#include "ganglion/dsl/kind/client_rules.hpp"
#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/json_rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::dsl::detail {

namespace {

// The parameters of a JSON parameter list, as far as validation needs them.
std::vector<trigger_parameter> parameters_of(const nlohmann::json& spec, const char* key) {
  std::vector<trigger_parameter> out;
  if (!has(spec, key) || !spec[key].is_array())
    return out;
  for (const auto& item : spec[key]) {
    trigger_parameter p;
    if (has(item, "src")) {
      const auto& src = item["src"];
      p.src.dependency_name = text(src, "dependencyName");
      p.src.context_key = text(src, "contextKey");
      p.src.context_template = text(src, "contextTemplate");
      p.src.data_key = text(src, "dataKey");
      p.src.data_template = text(src, "dataTemplate");
      if (has(src, "value"))
        p.src.value = text(src, "value");
    }
    p.dest = text(item, "dest");
    p.operation = text(item, "operation");
    out.push_back(std::move(p));
  }
  return out;
}

void check_parameters(const nlohmann::json& spec, const char* key, const std::string& path,
                      const parameter_scope& scope, const load_context& cx) {
  // path ends in ".<action type>"; the list's dest-syntax path inside the template follows it.
  auto type = path.substr(path.rfind('.') + 1);
  validate_parameters(parameters_of(spec, key), child_path(path, key), false, scope, cx,
                      type + "." + key);
}

} // namespace

void validate_unmodelled_action(const std::string& type, const nlohmann::json& spec,
                                const std::string& path, const parameter_scope& run_scope,
                                const load_context& cx) {
  // ganglion does not run these kinds, so it never compiles their parameters.
  auto scope = run_scope;
  scope.compile_level = severity::warning;
  check_parameters(spec, "parameters", path, scope, cx);
}

} // namespace ganglion::dsl::detail
