#include "identity.hpp"

#include <algorithm>

namespace ganglion::test::kube {

namespace {

constexpr std::string_view service_account_prefix = "system:serviceaccount:";

void add_group(std::vector<std::string>& groups, const std::string& group) {
  if (!has_group(groups, group))
    groups.push_back(group);
}

} // namespace

std::string service_account_user(const std::string& ns, const std::string& name) {
  return std::string(service_account_prefix) + ns + ":" + name;
}

std::optional<std::pair<std::string, std::string>> split_service_account(const std::string& user) {
  if (user.rfind(service_account_prefix, 0) != 0)
    return std::nullopt;
  auto rest = user.substr(service_account_prefix.size());
  auto colon = rest.find(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == rest.size()
      || rest.find(':', colon + 1) != std::string::npos)
    return std::nullopt;
  return std::pair{rest.substr(0, colon), rest.substr(colon + 1)};
}

std::vector<std::string> service_account_groups(const std::string& ns) {
  return {"system:serviceaccounts", "system:serviceaccounts:" + ns};
}

user_info authenticated(user_info user) {
  if (auto account = split_service_account(user.name))
    for (const auto& group : service_account_groups(account->first))
      add_group(user.groups, group);
  add_group(user.groups, "system:authenticated");
  return user;
}

user_info anonymous() {
  return {"system:anonymous", {"system:unauthenticated"}};
}

bool has_group(const std::vector<std::string>& groups, const std::string& group) {
  return std::find(groups.begin(), groups.end(), group) != groups.end();
}

} // namespace ganglion::test::kube
