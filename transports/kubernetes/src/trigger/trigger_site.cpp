#include <chrono>
#include <stdexcept>

#include <fmt/format.h>

#include "client/acting_identity.hpp"
#include "trigger/object_trigger.hpp"

namespace ganglion::kubernetes::detail {

namespace {

std::string text(const nlohmann::json& object, const char* key) {
  auto found = object.find(key);
  return found != object.end() && found->is_string() ? found->get<std::string>() : "";
}

/// The client of `site`; throws when it has none (a dry run without a Kubernetes configuration).
api_client& client_of(const trigger_site& site, std::string_view what) {
  if (!site.client)
    throw std::runtime_error(fmt::format("{} needs the Kubernetes API", what));
  return *site.client;
}

/// In `namespace` mode, throws unless `path` stays in the confined namespace (whatever built it).
void check_path(const trigger_site& site, const std::string& method, const std::string& path) {
  if (!site.confined_to.empty() && !path_in_namespace(path, site.confined_to))
    throw std::runtime_error(fmt::format(
      "{} {} refused: it leaves the Sensor's namespace \"{}\" (--object-identity namespace)",
      method, path, site.confined_to));
}

} // namespace

std::string trigger_site::name() const {
  return fmt::format("{} trigger {}/{}", type, sensor, trigger);
}

std::string trigger_site::namespace_of(const nlohmann::json& object) const {
  if (auto metadata = object.find("metadata"); metadata != object.end() && metadata->is_object())
    if (auto ns = text(*metadata, "namespace"); !ns.empty())
      return ns;
  return sensor_namespace.empty() ? client_of(*this, "the default namespace").config().default_namespace
                                  : sensor_namespace;
}

resource_info trigger_site::resource_of(const std::string& api_version,
                                        const std::string& kind) const {
  auto found = client_of(*this, "finding kind " + kind).find_resource(api_version, kind);
  if (!found)
    throw std::runtime_error(fmt::format(
      "the API server serves no kind {} in {} (its discovery does not list it)", kind,
      api_version));
  return *found;
}

resource_info trigger_site::resource_of(const nlohmann::json& object) const {
  auto api_version = text(object, "apiVersion");
  auto kind = text(object, "kind");
  if (api_version.empty() || kind.empty())
    throw std::runtime_error("the object needs apiVersion and kind");
  return resource_of(api_version, kind);
}

void trigger_site::check_scope(const resource_info& resource, const std::string& ns,
                               std::string_view field) const {
  if (confined_to.empty())
    return;
  if (!resource.namespaced)
    throw std::runtime_error(cluster_scoped_refused(
      fmt::format("kind {} ({})", resource.kind, resource.api_version()), "Sensor", confined_to));
  if (ns != confined_to)
    throw std::runtime_error(outside_namespace(field, ns, "Sensor", confined_to));
}

nlohmann::json trigger_site::send(const std::string& method, const std::string& path,
                                  const std::string& body, const std::string& content_type,
                                  const std::string& what) const {
  api_request request;
  request.method = method;
  request.path = path;
  request.body = body;
  request.content_type = content_type;
  check_path(*this, method, path);
  auto response = client_of(*this, what).call(std::move(request));
  if (!response.ok())
    throw std::runtime_error(fmt::format("{}{}: {}", what, as_user(acting_user),
                                         response.message()));
  if (response.body.empty())
    return nullptr;
  return nlohmann::json::parse(response.body, nullptr, false);
}

std::optional<nlohmann::json> trigger_site::get(const std::string& path,
                                                const std::string& what) const {
  api_request request;
  request.path = path;
  check_path(*this, "GET", path);
  auto response = client_of(*this, what).call(std::move(request));
  if (response.status == 404)
    return std::nullopt;
  if (!response.ok())
    throw std::runtime_error(fmt::format("{}{}: {}", what, as_user(acting_user),
                                         response.message()));
  return nlohmann::json::parse(response.body, nullptr, false);
}

std::map<std::string, std::string> trigger_site::created_labels() const {
  auto now = std::chrono::duration_cast<std::chrono::milliseconds>(
    std::chrono::system_clock::now().time_since_epoch());
  return {{"events.argoproj.io/sensor", sensor},
          {"events.argoproj.io/trigger", trigger},
          {"events.argoproj.io/action-timestamp", std::to_string(now.count())}};
}

nlohmann::json object_reference(const std::string& operation, const resource_info& resource,
                                const std::string& ns, const std::string& name,
                                const nlohmann::json& returned) {
  nlohmann::json out{{"operation", operation},
                     {"apiVersion", resource.api_version()},
                     {"kind", resource.kind}};
  if (!ns.empty())
    out["namespace"] = ns;
  out["name"] = name;
  if (returned.is_object() && returned.contains("metadata") && returned["metadata"].is_object()) {
    const auto& metadata = returned["metadata"];
    for (const char* key : {"uid", "resourceVersion"})
      if (auto found = metadata.find(key); found != metadata.end() && found->is_string())
        out[key] = *found;
  }
  return out;
}

} // namespace ganglion::kubernetes::detail
