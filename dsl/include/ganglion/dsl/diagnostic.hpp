#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace ganglion::dsl {

/// A position in a manifest file; line and column are 1-based, 0 when unknown.
struct source_location {
  std::string file;
  int line = 0;
  int column = 0;
  /// `file` names an object of the cluster (`Sensor default/webhook`), not a file: there is no
  /// line or column, and diagnostics read `Sensor default/webhook: path: message`.
  bool object = false;
};

/// How bad a diagnostic is.
enum class severity { error, warning };

/// One problem found while loading or validating manifests.
struct diagnostic {
  severity level = severity::error;
  source_location where;
  /// YAML path of the offending node, e.g. `spec.triggers[0].template.http.url`.
  std::string path;
  std::string message;

  /// Renders `file:line:col: path: message` (with `warning: ` before the path for warnings);
  /// `object: path: message` for an object of the cluster.
  std::string to_string() const;
  /// to_string() without `warning: `, for a log line whose level says it.
  std::string without_level() const;
};

/// The YAML path of entry `key` of the map at `parent`, spelled as diagnostics spell it
/// (`spec.webhook.example`, `metadata.labels["app.kubernetes.io/name"]`).
std::string yaml_child_path(const std::string& parent, std::string_view key);

/// The YAML path of item `index` of the list at `parent` (`spec.triggers[0]`).
std::string yaml_item_path(const std::string& parent, std::size_t index);

/// True when any diagnostic in the list is an error.
bool has_errors(const std::vector<diagnostic>& diagnostics);

} // namespace ganglion::dsl
