#include <nlohmann/json.hpp>

#include "artifact/fetchers.hpp"
#include "client/object_names.hpp"
#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"
#include "ganglion/kubernetes/client.hpp"

namespace ganglion::kubernetes::detail {

namespace {

/// The value of `key` in the config map's `data`, else in its `binaryData` (base64).
std::optional<std::string> value_of(const nlohmann::json& map, const std::string& key) {
  if (auto data = map.find("data"); data != map.end() && data->is_object())
    if (auto v = data->find(key); v != data->end() && v->is_string())
      return v->get<std::string>();
  if (auto data = map.find("binaryData"); data != map.end() && data->is_object())
    if (auto v = data->find(key); v != data->end() && v->is_string()) {
      auto decoded = dsl::base64_decode(v->get<std::string>());
      if (!decoded.illegal_at)
        return std::move(decoded.bytes);
    }
  return std::nullopt;
}

} // namespace

std::string read_configmap_artifact(const configmap_key_selector& selector,
                                    const fetch_options& options, const std::string& path) {
  using dsl::detail::child_path;
  if (!options.client)
    throw artifact_error(path
                         + ": reading a config map needs the Kubernetes API (run with a "
                           "kubeconfig or in a cluster)");
  if (!dns_subdomain(selector.name))
    throw artifact_error(child_path(path, "name") + ": \"" + selector.name
                         + "\" is not a config map name");
  auto ns = options.namespace_name.empty() ? options.client->config().default_namespace
                                           : options.namespace_name;
  if (!dns_label(ns))
    throw artifact_error(path + ": \"" + ns + "\" is not a namespace name");
  auto where = "config map " + ns + "/" + selector.name;
  // In `impersonate` mode the client acts as the sensor's service account (acting_user).
  const auto& user = options.client->acting_user();
  api_request request;
  request.path = "/api/v1/namespaces/" + ns + "/configmaps/" + selector.name;
  request.timeout = options.timeout;
  auto response = options.client->call(std::move(request));
  if (!response.ok())
    throw artifact_error(child_path(path, "name") + ": cannot read " + where
                         + (user.empty() ? "" : " as " + user) + ": " + response.message());
  auto map = nlohmann::json::parse(response.body, nullptr, false);
  if (!map.is_object())
    throw artifact_error(path + ": the API's answer for " + where + " is not a JSON object");
  auto value = value_of(map, selector.key);
  if (!value)
    throw artifact_error(child_path(path, "key") + ": " + where + " has no key \"" + selector.key
                         + "\"");
  if (value->ends_with('\n'))
    value->pop_back();
  check_size(value->size(), options, path);
  return std::move(*value);
}

} // namespace ganglion::kubernetes::detail
