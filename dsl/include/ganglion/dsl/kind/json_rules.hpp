#pragma once

#include <string>

#include <nlohmann/json.hpp>

#include "ganglion/dsl/kind/load_context.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

// Helpers for rules over the JSON spec of types ganglion does not model yet.

namespace ganglion::dsl::detail {

/// True when `spec` is an object with a non-null `key`.
inline bool has(const nlohmann::json& spec, const char* key) {
  return spec.is_object() && spec.contains(key) && !spec[key].is_null();
}

/// The string at `key` (other scalars as JSON text); empty when absent.
inline std::string text(const nlohmann::json& spec, const char* key) {
  if (!has(spec, key))
    return {};
  const auto& v = spec[key];
  return v.is_string() ? v.get<std::string>() : v.dump();
}

/// Reports "<key> is required" at path.key when `key` is absent or an empty string.
inline bool required(const nlohmann::json& spec, const char* key, const std::string& path,
                     const load_context& cx) {
  if (has(spec, key) && !(spec[key].is_string() && spec[key].get<std::string>().empty()))
    return true;
  cx.error(child_path(path, key), std::string{key} + " is required");
  return false;
}

/// Reports "<key> is required" at path.key when `key` is absent (null).
inline bool required_object(const nlohmann::json& spec, const char* key, const std::string& path,
                            const load_context& cx) {
  if (has(spec, key))
    return true;
  cx.error(child_path(path, key), std::string{key} + " is required");
  return false;
}

} // namespace ganglion::dsl::detail
