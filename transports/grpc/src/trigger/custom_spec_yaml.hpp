#pragma once

// Private: the custom trigger's `spec` map as FetchResource receives it.

#include <map>
#include <string>

namespace ganglion::grpc::detail {

/// The YAML Argo sends for `spec` (ghodss/yaml.Marshal over go-yaml v2): one `key: value` line
/// per entry in go-yaml's key order, a string YAML would read as another type (`true`, `12`,
/// `2024-01-02`, ``) double-quoted. Differs from Argo's bytes only in how some strings are
/// written, not in what they read as: a multi-line string is double-quoted (Argo: `|-`), and
/// long lines are not folded at 80 columns.
std::string spec_yaml(const std::map<std::string, std::string>& spec);

/// go-yaml v2's order of map keys: runs of digits compare as numbers, other characters by code
/// point, non-letters before letters.
bool go_yaml_key_less(const std::string& a, const std::string& b);

/// Whether go-yaml v2 reads `text`, unquoted, as something other than a string (bool, null,
/// int, float, timestamp, merge key, base-60 float), and so quotes it.
bool go_yaml_needs_quotes(const std::string& text);

/// The `spec` map of the `custom` object given as JSON text (the template after its
/// parameters); throws std::runtime_error when a value is not a string.
std::map<std::string, std::string> spec_of_custom_json(const std::string& custom_json);

} // namespace ganglion::grpc::detail
