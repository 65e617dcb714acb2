#include "ganglion/dsl/kind/embedded_yaml.hpp"

#include "ganglion/dsl/kind/yaml_limits.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::dsl::detail {

namespace {

/// Where `inner` (a position inside the string) is in the manifest, when that is certain: a
/// one-line string sits on the line of its value; a block scalar (`|`, recognised by its final
/// line break) starts on the line after the indicator, indented two columns more than its
/// key. Other multi-line strings (quoted with `\n`, `|-`) give nullopt.
std::optional<source_location> file_position(const YAML::Node& field, const YAML::Mark& inner,
                                             const source_location& key_at) {
  const auto outer = field.Mark();
  const auto& text = field.Scalar();
  if (outer.line < 0 || inner.line < 0)
    return std::nullopt;
  source_location where = key_at;
  if (text.find('\n') == std::string::npos) {
    where.line = outer.line + 1;
    where.column = outer.column + (is_plain(field) ? 1 : 2) + inner.column;
  } else if (!is_plain(field) && text.back() == '\n') {
    where.line = outer.line + 2 + inner.line;
    where.column = key_at.column + 2 + inner.column;
  } else {
    return std::nullopt;
  }
  return where;
}

} // namespace

std::optional<YAML::Node> load_embedded_yaml(const YAML::Node& field, const std::string& path,
                                             const load_context& cx) {
  if (is_absent(field) || !field.IsScalar() || field.Scalar().empty())
    return std::nullopt;
  const auto key = path.substr(parent_path(path).size() + (parent_path(path).empty() ? 0 : 1));
  if (auto refused = check_yaml_limits(field.Scalar(), cx.doc.where.file, cx.options)) {
    cx.error(path, key + ": " + refused->message + " (its line "
                     + std::to_string(refused->where.line) + ")");
    return std::nullopt;
  }
  YAML::Node root;
  try {
    root = YAML::Load(field.Scalar());
  } catch (const YAML::Exception& e) {
    cx.error(path, "invalid YAML in " + key + " (its line " + std::to_string(e.mark.line + 1)
                     + "): " + e.msg);
    return std::nullopt;
  }
  if (is_absent(root))
    return std::nullopt;
  if (!root.IsMap()) {
    cx.error(path, key + " must hold \"key: value\" lines, got " + describe(root));
    return std::nullopt;
  }
  const auto key_at = cx.doc.locate(path);
  for (auto it = root.begin(); it != root.end(); ++it)
    if (it->first.IsScalar())
      if (auto where = file_position(field, it->first.Mark(), key_at))
        cx.doc.locations.emplace(child_path(path, it->first.Scalar()), *where);
  return root;
}

} // namespace ganglion::dsl::detail
