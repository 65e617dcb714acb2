#pragma once

// The PATCH content types: JSON merge, JSON patch, strategic merge (simplified), apply (YAML).

#include <string>

#include "api_server.hpp"

namespace ganglion::test::kube {

/// `application/merge-patch+json` etc.: which patch a Content-Type names.
enum class patch_type { merge, json_patch, strategic, apply, unsupported };

/// The patch type of a Content-Type header (parameters such as `; charset=utf-8` ignored).
patch_type patch_type_of(const std::string& content_type);

/// `target` with the strategic merge patch `patch`: an RFC 7386 merge, except that the lists
/// Kubernetes merges by key (`containers`, `env`, `volumes` … by `name`, `ports` by
/// `containerPort` or `port`, `volumeMounts` by `mountPath`, `conditions` by `type`) are merged
/// item by item, and `$patch: delete` / `$patch: replace` are honoured.
json strategic_merge(json target, const json& patch);

/// The object a YAML (or JSON) document describes. Throws api_error (400) when it does not
/// parse or is not a mapping.
json parse_yaml_object(const std::string& text);

/// `current` patched with `body` of `type`. Throws api_error: 400 for a body that does not
/// parse, 422 for a JSON patch that does not apply.
json apply_patch(const json& current, patch_type type, const std::string& body,
                 const resource_type& resource, const std::string& name);

} // namespace ganglion::test::kube
