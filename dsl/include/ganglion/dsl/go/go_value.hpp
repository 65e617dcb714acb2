#pragma once

// Not installed: a JSON object through Go's map[string]interface{} (json.Unmarshal into a map,
// keys added, json.Marshal): what Argo's github source does to a delivery's payload and the
// stripe source to an event's previous_attributes.

#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace ganglion::dsl {

/// json.Marshal(m) of `document` unmarshalled into `m map[string]interface{}` with `extra`
/// keys set: keys sorted byte-wise at every level (the last of duplicate keys kept), numbers
/// as float64 (`1.0` → `1`, `1e21` → `1e+21`, digits past 2^53 rounded), strings
/// HTML-escaped. nullopt with `error` set when `document` is not one JSON object (or nests
/// deeper than 1000 levels).
std::optional<std::string> remarshal_go_map(std::string_view document,
                                           const std::map<std::string, std::string>& extra,
                                           std::string& error);

} // namespace ganglion::dsl
