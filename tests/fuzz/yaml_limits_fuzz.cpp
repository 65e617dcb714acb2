// Fuzzes the limits pass that runs before a manifest is parsed into nodes
// (dsl/src/yaml/yaml_limits.cpp): it must never crash, and whatever it accepts must parse into
// a tree that a walk with aliases expanded finds within the same limits — the walks of the
// loader (locations, schema, JSON) rely on that.

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "ganglion/dsl/kind/yaml_limits.hpp"

namespace {

/// Small limits, so that the fuzzer reaches them with short inputs.
const ganglion::dsl::load_options limits{.max_depth = 12, .max_nodes = 2000};

/// Walks `node` as the loader does (aliases expanded); counts nodes into `nodes`.
void walk(const YAML::Node& node, int depth, std::size_t& nodes) {
  if (depth > limits.max_depth || ++nodes > limits.max_nodes)
    std::abort(); // the limits pass accepted a document beyond its limits
  if (node.IsMap()) {
    for (auto it = node.begin(); it != node.end(); ++it) {
      walk(it->first, depth + 1, nodes);
      walk(it->second, depth + 1, nodes);
    }
  } else if (node.IsSequence()) {
    for (std::size_t i = 0; i < node.size(); ++i)
      walk(node[i], depth + 1, nodes);
  }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  if (ganglion::dsl::detail::check_yaml_limits(text, "fuzz.yaml", limits))
    return 0;
  std::vector<YAML::Node> roots;
  try {
    roots = YAML::LoadAll(text);
  } catch (const YAML::Exception&) {
    return 0;
  }
  std::size_t nodes = 0;
  for (const auto& root : roots)
    walk(root, 1, nodes);
  return 0;
}
