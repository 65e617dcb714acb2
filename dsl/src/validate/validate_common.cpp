#include "ganglion/dsl/kind/rules.hpp"

#include <algorithm>

#include "ganglion/dsl/params/parameters.hpp"
#include "validate/validate_compile.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::dsl::detail {

namespace {

bool rewritten(const parameter_scope& scope, const std::string& target) {
  return std::any_of(scope.template_dests.begin(), scope.template_dests.end(),
                     [&](const std::string& dest) {
                       return !dest.empty() && (target == dest || target.starts_with(dest + "."));
                     });
}

/// Compiles what compiled_parameter compiles, each at its node: the keys (gjson), the template
/// in effect (data side over context side; Argo falls back to the key or value when it does not
/// parse, so then only a warning), and dest (sjson; also gjson for append and prepend).
void compile_parameter(const trigger_parameter& p, const std::string& at, severity level,
                       const load_context& cx) {
  const auto& src = p.src;
  auto src_at = child_path(at, "src");
  bool data = !src.data_key.empty() || !src.data_template.empty();
  const auto& key = data ? src.data_key : src.context_key;
  const auto& tmpl = data ? src.data_template : src.context_template;
  auto tmpl_at = child_path(src_at, data ? "dataTemplate" : "contextTemplate");
  if (!tmpl.empty() && (!key.empty() || src.value)) {
    try {
      go_template::parse(tmpl);
    } catch (const std::exception& e) {
      cx.warning(tmpl_at, std::string{"Go template does not compile, so "}
                            + (key.empty() ? "value" : "the key") + " is used instead: "
                            + e.what());
    }
  } else if (!tmpl.empty()) {
    check_go_template(tmpl, tmpl_at, cx, level);
  }
  if (!src.data_key.empty())
    check_json_path(src.data_key, child_path(src_at, "dataKey"), cx, level);
  if (!src.context_key.empty())
    check_json_path(src.context_key, child_path(src_at, "contextKey"), cx, level);
  auto dest_at = child_path(at, "dest");
  if (check_dest_path(p.dest, dest_at, cx, level) && !p.dest.empty()
      && (p.operation == "append" || p.operation == "prepend"))
    check_json_path(p.dest, dest_at, cx, level);
}

} // namespace

void validate_parameters(const std::vector<trigger_parameter>& parameters, const std::string& path,
                         bool dest_optional, const parameter_scope& scope,
                         const load_context& cx, const std::string& relative) {
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    const auto& p = parameters[i];
    auto at = item_path(path, i);
    auto first = cx.diagnostics.size();
    auto target = relative + "." + std::to_string(i) + ".src.dependencyName";
    auto src = child_path(at, "src");
    if (!present(cx, src)) {
      cx.error(at, "parameter source (src) is required");
    } else if (require(p.src.dependency_name, child_path(src, "dependencyName"),
                       "src.dependencyName", cx)
               && !scope.dependencies.contains(p.src.dependency_name)
               && (relative.empty() || !rewritten(scope, target))) {
      cx.error(child_path(src, "dependencyName"),
               "unknown dependency \"" + p.src.dependency_name + "\"");
    }
    if (!dest_optional)
      require(p.dest, child_path(at, "dest"), "dest", cx);
    if (p.operation != "" && p.operation != "overwrite" && p.operation != "append"
        && p.operation != "prepend")
      cx.error(child_path(at, "operation"), "operation must be overwrite, append or prepend, got \""
                                              + p.operation + "\"");
    compile_parameter(p, at, scope.compile_level, cx);
    if (cx.diagnostics.size() == first && scope.compile_level == severity::error) {
      try {
        compiled_parameter{p};
      } catch (const std::exception& e) {
        cx.error(at, std::string{"parameter does not compile: "} + e.what());
      }
    }
  }
}

void require_payload(const std::vector<trigger_parameter>& payload, const std::string& path,
                     const std::string& type, const parameter_scope& scope,
                     const load_context& cx) {
  auto at = child_path(path, "payload");
  if (!present(cx, at))
    cx.error(at, "payload is required");
  validate_parameters(payload, at, false, scope, cx, type + ".payload");
}

} // namespace ganglion::dsl::detail
