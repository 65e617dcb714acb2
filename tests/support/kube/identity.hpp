#pragma once

// Who a request comes from: the users and groups Kubernetes' authenticators give.

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api_server.hpp"

namespace ganglion::test::kube {

/// `system:serviceaccount:<ns>:<name>`.
std::string service_account_user(const std::string& ns, const std::string& name);

/// The namespace and name of a service account user; nullopt for any other user.
std::optional<std::pair<std::string, std::string>> split_service_account(const std::string& user);

/// `system:serviceaccounts`, `system:serviceaccounts:<ns>`.
std::vector<std::string> service_account_groups(const std::string& ns);

/// `user` as an authenticator gives it: a service account's groups added, and
/// `system:authenticated`.
user_info authenticated(user_info user);

/// `system:anonymous` in the group `system:unauthenticated`.
user_info anonymous();

/// Whether `groups` holds `group`.
bool has_group(const std::vector<std::string>& groups, const std::string& group);

} // namespace ganglion::test::kube
