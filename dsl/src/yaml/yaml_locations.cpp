#include "yaml/yaml_locations.hpp"

#include <set>

#include "ganglion/dsl/kind/yaml_limits.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::dsl::detail {

namespace {

source_location location_of(const YAML::Mark& mark, const load_context& cx) {
  source_location where;
  where.file = cx.doc.where.file;
  if (mark.line >= 0) {
    where.line = mark.line + 1;
    where.column = mark.column + 1;
  }
  return where;
}

/// Walks `node` at nesting level `depth` (0 for a document); false once a limit is crossed.
bool walk(const YAML::Node& node, const std::string& path, int depth, const load_context& cx,
          std::size_t& nodes) {
  const auto& options = cx.options;
  if (depth >= options.max_depth || ++nodes > options.max_nodes)
    return false;
  if (node.IsMap()) {
    std::set<std::string> seen;
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (!it->first.IsScalar()) {
        if (!count_nodes(it->first, depth + 2, nodes, options)
            || !count_nodes(it->second, depth + 2, nodes, options))
          return false;
        continue;
      }
      if (++nodes > options.max_nodes)
        return false;
      const auto& key = it->first.Scalar();
      auto key_path = child_path(path, key);
      if (!seen.insert(key).second) {
        diagnostic d;
        d.where = location_of(it->first.Mark(), cx);
        d.path = key_path;
        d.message = "duplicate key \"" + key + "\"";
        cx.diagnostics.push_back(std::move(d));
        if (!count_nodes(it->second, depth + 2, nodes, options))
          return false;
        continue;
      }
      cx.doc.locations.emplace(key_path, location_of(it->first.Mark(), cx));
      if (!walk(it->second, key_path, depth + 1, cx, nodes))
        return false;
    }
  } else if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i) {
      auto item = item_path(path, i);
      if (node[i].Mark().line >= 0)
        cx.doc.locations.emplace(item, location_of(node[i].Mark(), cx));
      if (!walk(node[i], item, depth + 1, cx, nodes))
        return false;
    }
  }
  return true;
}

} // namespace

bool record_locations(const YAML::Node& root, const load_context& cx, std::size_t& nodes) {
  return walk(root, "", 0, cx, nodes);
}

} // namespace ganglion::dsl::detail
