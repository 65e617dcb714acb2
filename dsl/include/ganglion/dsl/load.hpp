#pragma once

#include <string>
#include <vector>

#include "ganglion/dsl/diagnostic.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::dsl {

/// Options of loading and validation.
struct load_options {
  /// Unknown fields are errors instead of warnings.
  bool strict = false;
};

/// Documents loaded from manifest files, and every problem found in them.
struct load_result {
  std::vector<document> documents;
  std::vector<diagnostic> diagnostics;
};

/// Loads YAML files and directories (recursively: *.yaml, *.yml; multi-document) into the typed
/// model and validates every EventSource, Sensor and EventBus with Argo's rules. Reports all
/// problems at once; never throws for bad input.
load_result load_manifests(const std::vector<std::string>& paths, const load_options& options = {});

/// Loads manifests from YAML text (for tests and embedders); `file` names it in diagnostics.
load_result load_manifest_text(const std::string& text, const std::string& file,
                               const load_options& options = {});

} // namespace ganglion::dsl
