#pragma once

// What a request asks to do, as Kubernetes' RequestInfoFactory reads it from the method and
// URL before anything is routed: the attributes RBAC authorizes.

#include <map>
#include <string>
#include <vector>

namespace ganglion::test::kube {

/// The authorization attributes of a request (or of an impersonation, or of a
/// SelfSubjectAccessReview).
struct request_attributes {
  /// A resource request (`/api/v1/…`, `/apis/<g>/<v>/…`); else a non-resource one (`path`).
  bool resource_request = false;
  /// get, list, watch, create, update, patch, delete, deletecollection, impersonate …; the
  /// lowercased HTTP method for a non-resource request.
  std::string verb;
  std::string path;
  std::string group;
  std::string version;
  std::string resource;
  std::string subresource;
  std::string ns;
  std::string name;
};

/// The attributes of `method` on a URL of `path` (its decoded `segments`) and `query`.
request_attributes attributes_of(const std::string& method, const std::string& path,
                                 const std::vector<std::string>& segments,
                                 const std::map<std::string, std::string>& query);

} // namespace ganglion::test::kube
