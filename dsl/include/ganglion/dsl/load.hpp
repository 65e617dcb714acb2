#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "ganglion/dsl/diagnostic.hpp"
#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model.hpp"

namespace ganglion::dsl {

/// Options of loading and validation. The limits bound what one manifest file may cost; a file
/// beyond one is refused with a located error before it is loaded (docs/compatibility.md).
struct load_options {
  /// Unknown fields are errors instead of warnings.
  bool strict = false;
  /// A directory without a `*.yaml` or `*.yml` file is no error (`run --from-cluster`: the
  /// cluster's objects may be all there is).
  bool empty_directory_ok = false;
  /// Bytes a manifest file may hold (2 MiB; a ConfigMap holds at most 1 MiB); checked before
  /// the file is read. It also bounds yaml-cpp's memory on one flow collection (~250x the file).
  std::size_t max_file_bytes = std::size_t{2} << 20;
  /// Levels of nested maps and lists a document may have, aliases expanded.
  int max_depth = 100;
  /// Nodes the documents of one file may have with every alias expanded ("billion laughs").
  std::size_t max_nodes = 1'000'000;
  /// The spec steps of the source and trigger kinds to read and check; a type without one is
  /// kept as JSON (and checked with Argo's rules for it where dsl has them).
  kind_specs kinds = {};
};

/// Documents loaded from manifest files, and every problem found in them.
struct load_result {
  std::vector<document> documents;
  std::vector<diagnostic> diagnostics;
};

/// Loads YAML files and directories (recursively: *.yaml, *.yml; multi-document) into the typed
/// model and validates every EventSource, Sensor and EventBus with Argo's rules. Entries whose
/// name starts with `..` are skipped in a directory (a mounted ConfigMap's `..data` and
/// timestamped directories: each object is read once, through its `file.yaml` link); a directory
/// without one is an error unless `options.empty_directory_ok`. Two objects of the same kind and
/// name are an error, and so is an argoproj.io/v1alpha1 kind that misspells EventSource, Sensor
/// or EventBus. Reports all problems at once; never throws for bad input.
load_result load_manifests(const std::vector<std::string>& paths, const load_options& options = {});

/// Loads manifests from YAML text (for tests and embedders); `file` names it in diagnostics.
load_result load_manifest_text(const std::string& text, const std::string& file,
                               const load_options& options = {});

/// Loads one object of the cluster from its JSON (or YAML) text: `object` names it in every
/// diagnostic and location (`Sensor default/webhook`), without line or column (cluster mode).
load_result load_object_text(const std::string& text, const std::string& object,
                             const load_options& options = {});

} // namespace ganglion::dsl
