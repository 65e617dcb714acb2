#pragma once

// A notification's body as Argo's storagegrid source reads it before its struct: the body
// url.QueryUnescape'd whole, then joncalhoun/qson's ToJSON (pairs split on `&` and at their last
// `=`, keys and values unescaped again, `a[b][c]` keys nested, each value JSON when it parses
// as JSON (a Go interface{}: numbers float64) and a string otherwise, pairs merged).

#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ganglion::storagegrid::detail {

/// How a body failed to read.
struct qson_error {
  std::string message;
  /// Where Go panics (a slice or type assertion qson does not guard): Argo's handler dies and
  /// the producer gets no answer.
  bool panic = false;
};

/// json.Unmarshal of `text` into a Go interface{}: Go's grammar, every number a double (nullopt
/// when out of float64's range), invalid UTF-8 as U+FFFD, the last of duplicate keys kept.
std::optional<nlohmann::json> go_json_value(std::string_view text);

/// qson.ToJSON(url.QueryUnescape(body)) before its json.Marshal: an object whose keys iterate
/// in Go's marshalling order; nullopt with `error` set when Go fails or panics.
std::optional<nlohmann::json> notification_tree(std::string_view body, qson_error& error);

} // namespace ganglion::storagegrid::detail
