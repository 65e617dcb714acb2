#include "source/resource_discovery.hpp"

#include <stdexcept>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>

namespace ganglion::kubernetes::detail {

std::string group_version_path(const resource_event_spec& spec) {
  return spec.group.empty() ? "/api/" + spec.version
                            : "/apis/" + spec.group + "/" + spec.version;
}

std::string discover_collection(api_client& client, const resource_event_spec& spec,
                                const std::string& cluster_scoped_refusal) {
  auto gv = group_version_path(spec);
  auto shown = spec.group.empty() ? spec.version : spec.group + "/" + spec.version;
  api_request request;
  request.path = gv;
  auto response = client.call(request);
  if (response.status == 404)
    throw std::runtime_error(
      fmt::format("the API server does not serve {} (discovery: GET {} answered {})", shown, gv,
                  response.message()));
  if (!response.ok())
    throw std::runtime_error(fmt::format("discovery of {} failed: {}", shown, response.message()));
  auto list = nlohmann::json::parse(response.body, nullptr, false);
  if (!list.is_object() || !list.contains("resources") || !list["resources"].is_array())
    throw std::runtime_error(
      fmt::format("discovery of {}: GET {} did not answer an APIResourceList", shown, gv));
  std::vector<std::string> served;
  for (const auto& r : list["resources"]) {
    auto name = r.value("name", std::string{});
    if (name.empty() || name.find('/') != std::string::npos)
      continue;
    if (name != spec.resource) {
      served.push_back(name);
      continue;
    }
    bool namespaced = r.value("namespaced", false);
    if (!namespaced && !cluster_scoped_refusal.empty())
      throw std::runtime_error(cluster_scoped_refusal);
    if (!namespaced && !spec.namespace_.empty())
      throw std::runtime_error(fmt::format("resource {} of {} is cluster-scoped: namespace \"{}\" "
                                           "must be left empty",
                                           spec.resource, shown, spec.namespace_));
    auto ns = namespaced && !spec.namespace_.empty() ? "/namespaces/" + spec.namespace_ : "";
    return gv + ns + "/" + spec.resource;
  }
  throw std::runtime_error(fmt::format("the API server does not serve resource \"{}\" in {} "
                                       "(discovery lists: {})",
                                       spec.resource, shown,
                                       served.empty() ? "none" : fmt::format("{}", fmt::join(served, ", "))));
}

} // namespace ganglion::kubernetes::detail
