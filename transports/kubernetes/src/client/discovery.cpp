#include "ganglion/kubernetes/client.hpp"

#include <algorithm>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "client/client_impl.hpp"

namespace ganglion::kubernetes {

namespace {

using nlohmann::json;

/// The body of a GET of discovery `path`; nullopt on 404; throws on another failure.
std::optional<json> get_discovery(api_client& client, const std::string& path) {
  auto response = client.call(api_request{.path = path});
  if (response.status == 404)
    return std::nullopt;
  if (!response.ok())
    throw std::runtime_error("Kubernetes discovery " + path + ": " + response.message());
  auto body = json::parse(response.body, nullptr, false);
  if (!body.is_object())
    throw std::runtime_error("Kubernetes discovery " + path
                             + ": the response is not a JSON object");
  return body;
}

std::string string_at(const json& object, const char* key) {
  auto i = object.find(key);
  return i != object.end() && i->is_string() ? i->get<std::string>() : std::string();
}

/// Whether an APIGroupList lists `group` in `version`.
bool lists(const json& groups, const std::string& group, const std::string& version) {
  auto list = groups.find("groups");
  if (list == groups.end() || !list->is_array())
    return false;
  for (const auto& g : *list) {
    if (!g.is_object() || string_at(g, "name") != group)
      continue;
    auto versions = g.find("versions");
    if (versions == g.end() || !versions->is_array())
      return false;
    for (const auto& v : *versions) {
      if (v.is_object() && string_at(v, "version") == version)
        return true;
    }
  }
  return false;
}

/// The resources of an APIResourceList (subresources only mark `has_status`).
std::vector<resource_info> resources_of(const json& list, const std::string& group,
                                        const std::string& version) {
  std::vector<resource_info> out;
  auto items = list.find("resources");
  if (items == list.end() || !items->is_array())
    return out;
  std::vector<std::string> with_status;
  for (const auto& r : *items) {
    if (!r.is_object())
      continue;
    auto name = string_at(r, "name");
    auto slash = name.find('/');
    if (slash != std::string::npos) {
      if (name.substr(slash + 1) == "status")
        with_status.push_back(name.substr(0, slash));
      continue;
    }
    resource_info info{group, version, string_at(r, "kind"), name};
    auto namespaced = r.find("namespaced");
    info.namespaced = namespaced != r.end() && namespaced->is_boolean() && namespaced->get<bool>();
    out.push_back(std::move(info));
  }
  for (auto& info : out)
    info.has_status = std::find(with_status.begin(), with_status.end(), info.name)
                      != with_status.end();
  return out;
}

/// What discovery says `group/version` serves now (empty when it is not served).
std::vector<resource_info> discover(api_client& client, const std::string& group,
                                    const std::string& version) {
  if (group.empty()) {
    auto list = get_discovery(client, "/api/" + version);
    return list ? resources_of(*list, group, version) : std::vector<resource_info>{};
  }
  auto groups = get_discovery(client, "/apis");
  if (!groups || !lists(*groups, group, version))
    return {};
  auto list = get_discovery(client, "/apis/" + group + "/" + version);
  return list ? resources_of(*list, group, version) : std::vector<resource_info>{};
}

std::optional<resource_info> find_kind(const std::vector<resource_info>& resources,
                                       std::string_view kind) {
  for (const auto& r : resources) {
    if (r.kind == kind)
      return r;
  }
  return std::nullopt;
}

} // namespace

std::optional<resource_info> api_client::find_resource(std::string_view api_version,
                                                       std::string_view kind) {
  if (owner_)
    return owner_->find_resource(api_version, kind);
  auto slash = api_version.find('/');
  std::string group = slash == std::string_view::npos ? ""
                                                      : std::string(api_version.substr(0, slash));
  std::string version(slash == std::string_view::npos ? api_version
                                                      : api_version.substr(slash + 1));
  if (version.empty() || version.find('/') != std::string::npos)
    throw std::runtime_error("not an apiVersion: '" + std::string(api_version) + "'");
  std::lock_guard guard{impl_->discovery_mutex};
  auto now = std::chrono::steady_clock::now();
  auto cached = impl_->discovery.find(api_version);
  if (cached != impl_->discovery.end()) {
    if (auto found = find_kind(cached->second.resources, kind))
      return found;
    if (now - cached->second.at < impl_->options.discovery_refresh)
      return std::nullopt;
  }
  auto resources = discover(*this, group, version);
  auto found = find_kind(resources, kind);
  impl_->discovery.insert_or_assign(std::string(api_version),
                                    impl::discovered{std::move(resources), now});
  return found;
}

} // namespace ganglion::kubernetes
