#include "yaml/yaml_schema.hpp"

#include <map>
#include <sstream>

#include "ganglion/dsl/kind/read.hpp"
#include "ganglion/dsl/kind/yaml_node.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::dsl::detail {

namespace {

using field_map = std::map<std::string, std::string, std::less<>>;
using type_map = std::map<std::string, field_map, std::less<>>;

const type_map& types() {
  static const type_map parsed = [] {
    type_map out;
    for (const auto& entry : argo_schema_table()) {
      auto& fields = out[entry.name];
      std::istringstream in{entry.fields};
      std::string item;
      while (in >> item) {
        auto colon = item.find(':');
        fields.emplace(item.substr(0, colon), item.substr(colon + 1));
      }
    }
    return out;
  }();
  return parsed;
}

std::vector<std::string_view> field_names(const field_map& fields) {
  std::vector<std::string_view> out;
  out.reserve(fields.size());
  for (const auto& [name, type] : fields)
    out.push_back(name);
  return out;
}

void type_error(const load_context& cx, const std::string& path, const char* expected,
                const YAML::Node& node) {
  cx.type_error(path, std::string{"expected "} + expected + ", got " + describe(node));
}

} // namespace

const std::string* schema_field_type(std::string_view type, std::string_view field) {
  const auto& all = types();
  auto t = all.find(type);
  if (t == all.end())
    return nullptr;
  auto f = t->second.find(field);
  return f == t->second.end() ? nullptr : &f->second;
}

void check_schema(const YAML::Node& node, std::string_view type, const std::string& path,
                  const load_context& cx) {
  if (is_absent(node) || type == "a")
    return;
  if (type.starts_with("[")) {
    if (!node.IsSequence())
      return type_error(cx, path, "a list", node);
    for (std::size_t i = 0; i < node.size(); ++i)
      check_schema(node[i], type.substr(1), item_path(path, i), cx);
    return;
  }
  if (type.starts_with("{")) {
    if (!node.IsMap())
      return type_error(cx, path, "a map", node);
    for (auto it = node.begin(); it != node.end(); ++it) {
      if (!it->first.IsScalar()) {
        cx.error(path, "map keys must be strings");
        continue;
      }
      check_schema(it->second, type.substr(1), child_path(path, it->first.Scalar()), cx);
    }
    return;
  }
  if (type == "s" || type == "is") {
    if (!node.IsScalar())
      type_error(cx, path, type == "s" ? "a string" : "an integer or a string", node);
    return;
  }
  if (type == "i") {
    if (!scalar_int(node))
      type_error(cx, path, "an integer", node);
    return;
  }
  if (type == "n") {
    if (!scalar_number(node))
      type_error(cx, path, "a number", node);
    return;
  }
  if (type == "b") {
    if (!scalar_bool(node))
      type_error(cx, path, "a boolean", node);
    return;
  }
  const auto& all = types();
  auto object = all.find(type);
  if (object == all.end())
    return;
  if (!node.IsMap())
    return type_error(cx, path, "a map", node);
  if (type == "SecretKeySelector")
    cx.doc.secret_refs.emplace_back(path, secret_key_selector{read_string(node, "name"),
                                                              read_string(node, "key")});
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (!it->first.IsScalar()) {
      cx.error(path, "map keys must be strings");
      continue;
    }
    const auto& key = it->first.Scalar();
    auto field_path = child_path(path, key);
    auto field = object->second.find(key);
    if (field == object->second.end())
      cx.unknown_field(field_path, key, field_names(object->second));
    else
      check_schema(it->second, field->second, field_path, cx);
  }
}

} // namespace ganglion::dsl::detail
