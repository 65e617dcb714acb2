#include "client/acting_identity.hpp"

#include <fmt/format.h>

namespace ganglion::kubernetes::detail {

namespace {

constexpr std::string_view confinement_note =
  "with --object-identity namespace an object acts only in its own namespace (grant the engine "
  "`impersonate` on `serviceaccounts` to let Kubernetes RBAC decide instead)";

/// The next `/`-separated segment of `path` from `at`, and `at` moved past it.
std::string_view segment(std::string_view path, std::size_t& at) {
  if (at < path.size() && path[at] == '/')
    ++at;
  auto end = path.find('/', at);
  if (end == std::string_view::npos)
    end = path.size();
  auto out = path.substr(at, end - at);
  at = end;
  return out;
}

} // namespace

acting_identity identity_for(identity_mode mode, std::shared_ptr<api_client> shared,
                             std::string_view ns, std::string_view service_account) {
  acting_identity out;
  std::string own = ns.empty() && shared ? shared->config().default_namespace : std::string(ns);
  switch (mode) {
    case identity_mode::engine: out.client = std::move(shared); break;
    case identity_mode::namespace_:
      out.client = std::move(shared);
      out.confined_to = own.empty() ? "default" : own;
      break;
    case identity_mode::impersonate:
      out.user = service_account_user(own.empty() ? "default" : own, service_account);
      if (shared)
        out.client = api_client::acting_as(std::move(shared), out.user);
      break;
  }
  return out;
}

std::string outside_namespace(std::string_view field, std::string_view asked,
                              std::string_view owner, std::string_view own) {
  return fmt::format("{}: namespace \"{}\" is not the {}'s namespace \"{}\": {}", field, asked,
                     owner, own, confinement_note);
}

std::string cluster_scoped_refused(std::string_view what, std::string_view owner,
                                   std::string_view own) {
  return fmt::format("{} is cluster-scoped, outside the {}'s namespace \"{}\": {}", what, owner,
                     own, confinement_note);
}

bool path_in_namespace(std::string_view path, std::string_view ns) {
  path = path.substr(0, path.find('?'));
  // A name of `..` (or escaped dots) would climb out once the path is normalized.
  if (path.find('%') != std::string_view::npos || path.find('\\') != std::string_view::npos)
    return false;
  for (std::size_t at = 0; at < path.size();)
    if (auto part = segment(path, at); part == "." || part == "..")
      return false;
  std::size_t at = 0;
  auto root = segment(path, at);
  if (root == "apis")
    segment(path, at);
  else if (root != "api")
    return false;
  segment(path, at);
  if (segment(path, at) != "namespaces" || segment(path, at) != ns)
    return false;
  return !segment(path, at).empty();
}

std::string as_user(std::string_view user) {
  return user.empty() ? std::string{} : fmt::format(" as {}", user);
}

} // namespace ganglion::kubernetes::detail
