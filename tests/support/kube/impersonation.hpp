#pragma once

// Impersonation as Kubernetes' WithImpersonation filter does it: `Impersonate-User`,
// `Impersonate-Group`, `Impersonate-Uid` and `Impersonate-Extra-<key>` headers, each checked
// with the verb `impersonate`, then the request acts as the user they name.

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "api_server.hpp"
#include "rbac.hpp"

namespace ganglion::test::kube {

/// The `Impersonate-*` headers of a request.
struct impersonation_headers {
  std::string user;
  std::vector<std::string> groups;
  std::string uid;
  /// `Impersonate-Extra-<key>` (key lowercased) and each value.
  std::vector<std::pair<std::string, std::string>> extras;

  /// Whether any impersonation header was sent.
  bool any() const { return !user.empty() || !groups.empty() || !uid.empty() || !extras.empty(); }
};

/// Headers that impersonate nothing coherent (a group without a user): Kubernetes answers
/// `500` with a plain-text `Internal Server Error: "<uri>": <what()>`.
class impersonation_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// The user `requester` acts as through `headers`; `requester` itself when there are none.
/// Each impersonation is authorized (403 api_error when refused; never when RBAC is off).
/// Throws impersonation_error for incoherent headers.
user_info impersonate(const user_info& requester, const impersonation_headers& headers,
                      const authorizer& authorize);

} // namespace ganglion::test::kube
