#pragma once

// The resource source's model: `spec.resource.<event>` of an EventSource, as its spec step
// reads it (Argo's ResourceEventSource).

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/kind_spec.hpp"

namespace ganglion::kubernetes {

/// A label or field requirement (Argo's Selector). `value` lists several values as
/// `a,b` for `in` / `notin`; a field's value is a regular expression.
struct resource_selector {
  std::string key;
  /// `=`, `==`, `!=`, `in`, `notin`, `exists`, `!`, `gt`, `lt`; empty: `=`.
  std::string operation;
  std::string value;
};

/// `filter` (Argo's ResourceFilter).
struct resource_filter {
  /// Only objects whose name starts with it.
  std::string prefix;
  /// Sent to the API as the watch's label selector.
  std::vector<resource_selector> labels;
  /// gjson paths into the object, each matched against a regular expression.
  std::vector<resource_selector> fields;
  /// Only objects created at or before it (`createdBy`, RFC 3339).
  std::optional<std::chrono::system_clock::time_point> created_by;
  /// Only changes that happened after the source started.
  bool after_start = false;
};

/// `spec.resource.<event>`.
struct resource_event_spec {
  /// Empty: every namespace.
  std::string namespace_;
  std::string group;
  std::string version;
  /// The plural name of the resource, as in URLs (`pods`, `workflows`).
  std::string resource;
  /// `ADD`, `UPDATE`, `DELETE`.
  std::vector<std::string> event_types;
  std::optional<resource_filter> filter;
  std::map<std::string, std::string> metadata;
};

/// The spec step of the resource source (reads and checks `spec.resource.<event>`).
dsl::kind_spec resource_source_spec_step();

} // namespace ganglion::kubernetes
