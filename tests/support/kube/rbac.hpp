#pragma once

// Authorization as a Kubernetes API server with `--authorization-mode=RBAC` decides it: the
// privileged users and groups, then the Roles, ClusterRoles and their bindings in the store
// (plugin/pkg/auth/authorizer/rbac).

#include <string>
#include <vector>

#include "api_server.hpp"
#include "errors.hpp"
#include "request_info.hpp"
#include "store.hpp"

namespace ganglion::test::kube {

/// An authorizer's answer; `reason` as Kubernetes gives it (`RBAC: allowed by …`, or why
/// rules could not be read).
struct decision {
  bool allowed = false;
  std::string reason;
};

/// The authorizer of a test server; allows everything when RBAC is off. Thread-safe.
class authorizer {
public:
  authorizer(const store& objects, const server_options& options);

  /// Whether RBAC is enforced.
  bool enabled() const noexcept { return enabled_; }
  /// Whether `user` may do what `attributes` describe.
  decision authorize(const user_info& user, const request_attributes& attributes) const;

private:
  bool privileged(const user_info& user) const;

  const store& store_;
  bool enabled_;
  std::vector<std::string> admin_users_;
  std::vector<std::string> admin_groups_;
};

/// Whether `rule` (a PolicyRule object) allows `attributes` (RuleAllows).
bool rule_allows(const json& rule, const request_attributes& attributes);

/// `403 Forbidden` for `user` refused `attributes`, worded as the API server's: `secrets "x"
/// is forbidden: User "u" cannot get resource "secrets" in API group "" in the namespace "n"`,
/// `: <reason>` appended when there is one.
api_error forbidden(const user_info& user, const request_attributes& attributes,
                    const std::string& reason);

} // namespace ganglion::test::kube
