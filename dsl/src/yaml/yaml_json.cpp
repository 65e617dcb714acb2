#include "yaml/yaml_json.hpp"

#include "ganglion/dsl/kind/yaml_node.hpp"
#include "yaml/yaml_schema.hpp"

namespace ganglion::dsl::detail {

namespace {

nlohmann::json infer_scalar(const YAML::Node& node) {
  if (!is_plain(node))
    return node.Scalar();
  if (auto b = scalar_bool(node))
    return *b;
  if (auto i = scalar_int(node))
    return *i;
  if (auto n = scalar_number(node))
    return *n;
  return node.Scalar();
}

nlohmann::json typed_scalar(const YAML::Node& node, std::string_view type) {
  if (type == "s")
    return node.Scalar();
  if (type == "i")
    if (auto i = scalar_int(node))
      return *i;
  if (type == "n") {
    if (auto i = scalar_int(node))
      return *i;
    if (auto n = scalar_number(node))
      return *n;
  }
  if (type == "b")
    if (auto b = scalar_bool(node))
      return *b;
  if (type == "is") {
    if (is_plain(node))
      if (auto i = scalar_int(node))
        return *i;
    return node.Scalar();
  }
  return infer_scalar(node);
}

} // namespace

nlohmann::json yaml_to_json(const YAML::Node& node, std::string_view type) {
  if (is_absent(node))
    return nullptr;
  if (node.IsScalar())
    return typed_scalar(node, type);
  if (node.IsSequence()) {
    auto item_type = type.starts_with("[") ? type.substr(1) : std::string_view{"a"};
    auto out = nlohmann::json::array();
    for (std::size_t i = 0; i < node.size(); ++i)
      out.push_back(yaml_to_json(node[i], item_type));
    return out;
  }
  auto out = nlohmann::json::object();
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (!it->first.IsScalar())
      continue;
    const auto& key = it->first.Scalar();
    std::string_view value_type = "a";
    if (type.starts_with("{")) {
      value_type = type.substr(1);
    } else if (auto field = schema_field_type(type, key)) {
      value_type = *field;
    }
    if (!out.contains(key))
      out[key] = yaml_to_json(it->second, value_type);
  }
  return out;
}

} // namespace ganglion::dsl::detail
