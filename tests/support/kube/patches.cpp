#include "patches.hpp"

#include <algorithm>
#include <map>

#include <yaml-cpp/yaml.h>

#include "errors.hpp"

namespace ganglion::test::kube {

namespace {

/// The merge key of the lists strategic merge patches merge item by item.
const std::map<std::string, std::vector<std::string>>& merge_keys() {
  static const std::map<std::string, std::vector<std::string>> keys = {
    {"containers", {"name"}},
    {"initContainers", {"name"}},
    {"ephemeralContainers", {"name"}},
    {"env", {"name"}},
    {"volumes", {"name"}},
    {"imagePullSecrets", {"name"}},
    {"volumeMounts", {"mountPath"}},
    {"volumeDevices", {"devicePath"}},
    {"ports", {"containerPort", "port"}},
    {"conditions", {"type"}},
    {"hostAliases", {"ip"}},
  };
  return keys;
}

json without_directives(json item) {
  if (item.is_object())
    for (auto it = item.begin(); it != item.end();)
      it = it.key().rfind("$", 0) == 0 ? item.erase(it) : std::next(it);
  return item;
}

json merge_list(json target, const json& patch, const std::vector<std::string>& keys) {
  auto key_of = [&](const json& item) -> const std::string* {
    for (const auto& key : keys)
      if (item.is_object() && item.contains(key))
        return &key;
    return nullptr;
  };
  for (const auto& item : patch) {
    const std::string* key = key_of(item);
    if (!key) {
      target.push_back(without_directives(item));
      continue;
    }
    auto found = std::find_if(target.begin(), target.end(), [&](const json& existing) {
      return existing.is_object() && existing.contains(*key) && existing[*key] == item[*key];
    });
    bool remove = item.value("$patch", "") == "delete";
    if (found == target.end()) {
      if (!remove)
        target.push_back(without_directives(item));
    } else if (remove) {
      target.erase(found);
    } else {
      *found = strategic_merge(*found, item);
    }
  }
  return target;
}

json yaml_to_json(const YAML::Node& node) {
  switch (node.Type()) {
  case YAML::NodeType::Map: {
    json object = json::object();
    for (const auto& entry : node)
      object[entry.first.as<std::string>()] = yaml_to_json(entry.second);
    return object;
  }
  case YAML::NodeType::Sequence: {
    json array = json::array();
    for (const auto& item : node)
      array.push_back(yaml_to_json(item));
    return array;
  }
  case YAML::NodeType::Scalar: {
    const std::string& text = node.Scalar();
    if (node.Tag() == "!")
      return text;
    if (text == "true" || text == "True" || text == "TRUE")
      return true;
    if (text == "false" || text == "False" || text == "FALSE")
      return false;
    if (text == "null" || text == "Null" || text == "NULL" || text == "~")
      return nullptr;
    auto number = json::parse(text, nullptr, false);
    if (number.is_number())
      return number;
    return text;
  }
  default: return nullptr;
  }
}

} // namespace

patch_type patch_type_of(const std::string& content_type) {
  std::string type = content_type.substr(0, content_type.find(';'));
  while (!type.empty() && type.back() == ' ')
    type.pop_back();
  if (type == "application/merge-patch+json")
    return patch_type::merge;
  if (type == "application/json-patch+json")
    return patch_type::json_patch;
  if (type == "application/strategic-merge-patch+json")
    return patch_type::strategic;
  if (type == "application/apply-patch+yaml")
    return patch_type::apply;
  return patch_type::unsupported;
}

json strategic_merge(json target, const json& patch) {
  if (!patch.is_object())
    return patch;
  if (patch.value("$patch", "") == "replace")
    return without_directives(patch);
  if (patch.value("$patch", "") == "delete")
    return json::object();
  if (!target.is_object())
    target = json::object();
  for (const auto& [key, value] : patch.items()) {
    if (key.rfind("$", 0) == 0)
      continue;
    if (value.is_null()) {
      target.erase(key);
    } else if (value.is_array() && merge_keys().count(key) && target.contains(key)
               && target[key].is_array()) {
      target[key] = merge_list(target[key], value, merge_keys().at(key));
    } else if (value.is_array()) {
      json items = json::array();
      for (const auto& item : value)
        if (item.value("$patch", "") != "delete" || !item.is_object())
          items.push_back(without_directives(item));
      target[key] = items;
    } else if (value.is_object()) {
      target[key] = strategic_merge(target.contains(key) ? target[key] : json(nullptr), value);
    } else {
      target[key] = value;
    }
  }
  return target;
}

json parse_yaml_object(const std::string& text) {
  YAML::Node node;
  try {
    node = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw bad_request(std::string("error decoding YAML: ") + e.what());
  }
  if (!node.IsMap())
    throw bad_request("error decoding YAML: the apply patch is not an object");
  return yaml_to_json(node);
}

json apply_patch(const json& current, patch_type type, const std::string& body,
                 const resource_type& resource, const std::string& name) {
  if (type == patch_type::apply)
    return strategic_merge(current, parse_yaml_object(body));
  json patch = json::parse(body, nullptr, false);
  if (patch.is_discarded())
    throw bad_request("error decoding patch: invalid JSON in the body");
  switch (type) {
  case patch_type::merge:
    if (!patch.is_object())
      throw bad_request("error decoding patch: a merge patch must be a JSON object");
    {
      json result = current;
      result.merge_patch(patch);
      return result;
    }
  case patch_type::strategic:
    if (!patch.is_object())
      throw bad_request("error decoding patch: a strategic merge patch must be a JSON object");
    return strategic_merge(current, patch);
  case patch_type::json_patch:
    if (!patch.is_array())
      throw bad_request("error decoding patch: a JSON patch must be a JSON array");
    try {
      return current.patch(patch);
    } catch (const json::exception& e) {
      throw api_error(422, "Invalid",
                      qualified(resource) + " \"" + name + "\" is invalid: the JSON patch "
                        "does not apply: " + e.what());
    }
  default: throw api_error(415, "UnsupportedMediaType", "unsupported patch type");
  }
}

} // namespace ganglion::test::kube
