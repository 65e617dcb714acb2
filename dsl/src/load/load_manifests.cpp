#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <tuple>

#include <yaml-cpp/yaml.h>

#include "ganglion/dsl/load.hpp"
#include "ganglion/dsl/kind/read.hpp"
#include "load/load_duplicates.hpp"
#include "load/load_fingerprints.hpp"
#include "load/load_kinds.hpp"
#include "validate/filter_cache.hpp"
#include "validate/validate.hpp"
#include "ganglion/dsl/kind/yaml_limits.hpp"
#include "yaml/yaml_locations.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "yaml/closest_name.hpp"
#include "yaml/yaml_schema.hpp"

namespace ganglion::dsl {

namespace {

constexpr std::string_view argo_api_version = "argoproj.io/v1alpha1";

void add_file_diagnostic(load_result& result, const std::string& file, int line, int column,
                         std::string message) {
  diagnostic d;
  d.where = source_location{file, line, column};
  d.message = std::move(message);
  result.diagnostics.push_back(std::move(d));
}

/// An argoproj.io/v1alpha1 kind that misspells one ganglion runs (`Sensr`, `sensor`) is an error:
/// skipped, the object would silently not run. Argo's other kinds of that version (Workflow,
/// Rollout, Application …) are skipped as other apiVersions are.
void check_misspelt_kind(const std::string& kind, const detail::load_context& cx) {
  static const std::vector<std::string_view> kinds{"EventSource", "Sensor", "EventBus"};
  if (auto near = detail::closest_name(kind, kinds))
    cx.error("kind", "unknown kind \"" + kind + "\" of " + std::string{argo_api_version}
                       + "; did you mean \"" + *near + "\"?");
}

void load_body(const YAML::Node& root, const detail::load_context& cx) {
  auto& doc = cx.doc;
  doc.api_version = detail::read_string(root, "apiVersion");
  doc.kind = detail::read_string(root, "kind");
  doc.name = detail::read_string(detail::child(root, "metadata"), "name");
  if (doc.kind != "EventSource" && doc.kind != "Sensor" && doc.kind != "EventBus") {
    if (doc.api_version == argo_api_version)
      check_misspelt_kind(doc.kind, cx);
    return;
  }
  if (doc.api_version != argo_api_version)
    cx.error("apiVersion", doc.api_version.empty()
                             ? "apiVersion is required (argoproj.io/v1alpha1)"
                             : "apiVersion must be argoproj.io/v1alpha1 for kind " + doc.kind
                                 + ", got \"" + doc.api_version + "\"");
  detail::check_schema(root, doc.kind, "", cx);
  if (doc.name.empty())
    cx.error("metadata.name", "metadata.name is required");
  if (detail::is_absent(detail::child(root, "spec")))
    cx.error("spec", "spec is required");
  if (doc.kind == "EventSource") {
    auto body = detail::load_event_source(root, cx);
    detail::validate_event_source(body, cx);
    doc.body = std::move(body);
  } else if (doc.kind == "Sensor") {
    auto body = detail::load_sensor(root, cx);
    detail::validate_sensor(body, cx);
    doc.body = std::move(body);
  } else {
    auto body = detail::load_event_bus(root, cx);
    detail::validate_event_bus(body, cx);
    doc.body = std::move(body);
  }
  doc.fingerprints = detail::fingerprint_document(root, doc.kind);
}

/// Loads one document into `result`; false (and nothing loaded) once the file's documents so far
/// cross the depth or node limit, counted in `nodes`.
bool load_document(const YAML::Node& root, const std::string& file, const load_options& options,
                   detail::filter_cache& filters, std::size_t& nodes, load_result& result) {
  document doc;
  doc.where.file = file;
  if (auto mark = root.Mark(); mark.line >= 0) {
    doc.where.line = mark.line + 1;
    doc.where.column = mark.column + 1;
  }
  detail::load_context cx{doc, result.diagnostics, options, &filters};
  const auto first = result.diagnostics.size();
  try {
    if (!detail::record_locations(root, cx, nodes))
      return false;
    if (root.IsMap())
      load_body(root, cx);
    else
      cx.error("", "a manifest document must be a map, got " + detail::describe(root));
  } catch (const std::exception& e) {
    doc.body = std::monostate{};
    cx.error("", std::string{"internal error while loading the document: "} + e.what());
  }
  std::stable_sort(result.diagnostics.begin() + static_cast<std::ptrdiff_t>(first),
                   result.diagnostics.end(), [](const diagnostic& a, const diagnostic& b) {
                     return std::tie(a.where.line, a.where.column)
                            < std::tie(b.where.line, b.where.column);
                   });
  result.documents.push_back(std::move(doc));
  return true;
}

std::string too_large(std::uintmax_t bytes, const load_options& options) {
  return "the file has " + std::to_string(bytes) + " bytes, more than the limit of "
         + std::to_string(options.max_file_bytes) + " bytes";
}

void load_text_into(const std::string& text, const std::string& file, const load_options& options,
                    detail::filter_cache& filters, load_result& result) {
  if (text.size() > options.max_file_bytes) {
    add_file_diagnostic(result, file, 0, 0, too_large(text.size(), options));
    return;
  }
  // The streaming limits pass parses the text once more; it runs before building only when an
  // alias could expand or a ',' could stall yaml-cpp, and otherwise only to locate a limit that
  // walking the built tree crosses.
  const bool checked_first = detail::may_alias(text) || detail::may_stall(text);
  auto refuse = [&] {
    auto refused = detail::check_yaml_limits(text, file, options);
    if (refused)
      result.diagnostics.push_back(std::move(*refused));
    return refused.has_value();
  };
  if (checked_first && refuse())
    return;
  std::vector<YAML::Node> roots;
  try {
    roots = YAML::LoadAll(text);
  } catch (const YAML::Exception& e) {
    if (!checked_first && refuse()) // e.g. yaml-cpp's own depth guard, past ours
      return;
    add_file_diagnostic(result, file, e.mark.line >= 0 ? e.mark.line + 1 : 0,
                        e.mark.column >= 0 ? e.mark.column + 1 : 0,
                        "YAML syntax error: " + e.msg);
    return;
  } catch (const std::exception& e) {
    add_file_diagnostic(result, file, 0, 0, std::string{"cannot parse the YAML: "} + e.what());
    return;
  }
  const auto documents = result.documents.size();
  const auto diagnostics = result.diagnostics.size();
  std::size_t nodes = 0;
  for (const auto& root : roots) {
    if (detail::is_absent(root) || load_document(root, file, options, filters, nodes, result))
      continue;
    result.documents.resize(documents);
    result.diagnostics.resize(diagnostics);
    if (!refuse())
      add_file_diagnostic(result, file, 0, 0,
                          "the file has more than " + std::to_string(options.max_nodes)
                            + " YAML nodes or nests deeper than "
                            + std::to_string(options.max_depth) + " levels");
    return;
  }
}

void load_file(const std::filesystem::path& path, const load_options& options,
               detail::filter_cache& filters, load_result& result) {
  std::error_code ec;
  if (auto bytes = std::filesystem::file_size(path, ec); !ec && bytes > options.max_file_bytes) {
    add_file_diagnostic(result, path.string(), 0, 0, too_large(bytes, options));
    return;
  }
  std::ifstream in{path, std::ios::binary};
  if (!in) {
    add_file_diagnostic(result, path.string(), 0, 0, "cannot read the file");
    return;
  }
  std::ostringstream content;
  content << in.rdbuf();
  load_text_into(content.str(), path.string(), options, filters, result);
}

bool is_manifest(const std::filesystem::path& path) {
  auto ext = path.extension().string();
  return ext == ".yaml" || ext == ".yml";
}

/// `..data` and `..<timestamp>` of a mounted ConfigMap or Secret: the real files its
/// `file.yaml` links point into, which are read through the links.
bool is_kubernetes_internal(const std::filesystem::path& path) {
  return path.filename().string().starts_with("..");
}

std::vector<std::filesystem::path> manifests_in(const std::string& dir, const load_options& options,
                                                load_result& result) {
  namespace fs = std::filesystem;
  std::vector<fs::path> files;
  std::error_code ec;
  for (fs::recursive_directory_iterator it{dir, ec}, end; !ec && it != end; it.increment(ec)) {
    if (is_kubernetes_internal(it->path())) {
      it.disable_recursion_pending();
      continue;
    }
    if (it->is_regular_file(ec) && is_manifest(it->path()))
      files.push_back(it->path());
  }
  if (ec)
    add_file_diagnostic(result, dir, 0, 0, "cannot read the directory: " + ec.message());
  else if (files.empty() && !options.empty_directory_ok)
    add_file_diagnostic(result, dir, 0, 0, "no *.yaml or *.yml file in the directory");
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace

load_result load_manifest_text(const std::string& text, const std::string& file,
                               const load_options& options) {
  load_result result;
  detail::filter_cache filters;
  load_text_into(text, file, options, filters, result);
  detail::report_duplicates(result);
  return result;
}

load_result load_object_text(const std::string& text, const std::string& object,
                             const load_options& options) {
  load_result result;
  detail::filter_cache filters;
  load_text_into(text, object, options, filters, result);
  auto unplace = [](source_location& at) {
    at.line = 0;
    at.column = 0;
    at.object = true;
  };
  for (auto& d : result.diagnostics)
    unplace(d.where);
  for (auto& doc : result.documents) {
    unplace(doc.where);
    for (auto& [path, at] : doc.locations)
      unplace(at);
  }
  return result;
}

load_result load_manifests(const std::vector<std::string>& paths, const load_options& options) {
  namespace fs = std::filesystem;
  load_result result;
  detail::filter_cache filters;
  for (const auto& given : paths) {
    std::error_code ec;
    fs::path path{given};
    if (fs::is_directory(path, ec)) {
      for (const auto& file : manifests_in(given, options, result))
        load_file(file, options, filters, result);
    } else if (fs::exists(path, ec)) {
      load_file(path, options, filters, result);
    } else {
      add_file_diagnostic(result, given, 0, 0, "no such file or directory");
    }
  }
  detail::report_duplicates(result);
  return result;
}

} // namespace ganglion::dsl
