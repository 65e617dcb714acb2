#include "ganglion/kubernetes/object_identity.hpp"

#include <stdexcept>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "client/object_names.hpp"
#include "ganglion/kubernetes/client.hpp"

namespace ganglion::kubernetes {

namespace {

/// The answer of one SelfSubjectAccessReview for impersonating the service accounts of `ns`.
impersonation_check review(api_client& client, const std::string& ns) {
  nlohmann::json attributes{
    {"verb", "impersonate"}, {"group", ""}, {"resource", "serviceaccounts"}};
  if (!ns.empty())
    attributes["namespace"] = ns;
  nlohmann::json body{{"apiVersion", "authorization.k8s.io/v1"},
                      {"kind", "SelfSubjectAccessReview"},
                      {"spec", {{"resourceAttributes", attributes}}}};
  api_request request;
  request.method = "POST";
  request.path = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
  request.body = body.dump();
  auto response = client.call(std::move(request));
  if (!response.ok())
    return {false, "the access review failed: " + response.message()};
  auto answer = nlohmann::json::parse(response.body, nullptr, false);
  auto status = answer.is_object() ? answer.value("status", nlohmann::json::object())
                                   : nlohmann::json::object();
  if (status.is_object() && status.value("allowed", false))
    return {true, {}};
  auto reason = status.is_object() ? status.value("reason", std::string{}) : std::string{};
  return {false, reason.empty() ? "not allowed" : reason};
}

} // namespace

std::string_view to_string(identity_mode mode) {
  switch (mode) {
    case identity_mode::impersonate: return "impersonate";
    case identity_mode::namespace_: return "namespace";
    case identity_mode::engine: break;
  }
  return "engine";
}

std::optional<identity_mode> identity_mode_named(std::string_view name) {
  for (auto mode : {identity_mode::engine, identity_mode::impersonate, identity_mode::namespace_})
    if (to_string(mode) == name)
      return mode;
  return std::nullopt;
}

identity_mode identity_mode_or_engine(std::string_view name) {
  if (name.empty())
    return identity_mode::engine;
  if (auto mode = identity_mode_named(name))
    return *mode;
  throw std::invalid_argument(
    fmt::format("object identity \"{}\": not one of impersonate, namespace, engine", name));
}

std::string service_account_user(std::string_view ns, std::string_view service_account) {
  if (service_account.empty())
    service_account = "default";
  if (!detail::dns_label(ns))
    throw std::invalid_argument(fmt::format("\"{}\" is not a namespace name", ns));
  if (!detail::dns_subdomain(service_account))
    throw std::invalid_argument(
      fmt::format("serviceAccountName \"{}\" is not a service account name", service_account));
  return fmt::format("system:serviceaccount:{}:{}", ns, service_account);
}

impersonation_check may_impersonate(api_client& client,
                                    const std::vector<std::string>& namespaces) {
  if (namespaces.empty())
    return review(client, "");
  std::vector<std::string> refused;
  std::string reason;
  for (const auto& ns : namespaces) {
    auto answer = review(client, ns);
    if (answer.allowed)
      continue;
    refused.push_back(ns);
    if (reason.empty())
      reason = answer.reason;
  }
  if (refused.empty())
    return {true, {}};
  return {false, fmt::format("in namespace(s) {}: {}", fmt::join(refused, ", "), reason)};
}

identity_mode cluster_identity_mode(api_client& client,
                                    const std::vector<std::string>& namespaces) {
  auto answer = may_impersonate(client, namespaces);
  if (answer.allowed)
    return identity_mode::impersonate;
  spdlog::warn(
    "object identity: the engine may not impersonate service accounts ({}), so EventSources and "
    "Sensors act with the engine's rights, confined to their own namespace "
    "(--object-identity namespace); grant `impersonate` on `serviceaccounts` "
    "(deploy/rbac/cluster-role.yaml or role.yaml) so each acts as its own service account, or "
    "choose --object-identity impersonate|namespace|engine explicitly",
    answer.reason);
  return identity_mode::namespace_;
}

} // namespace ganglion::kubernetes
