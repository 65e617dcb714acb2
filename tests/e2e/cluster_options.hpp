#pragma once

// How the cluster-mode tests start the binary against the test Kubernetes API server, and the
// Sensor they put there.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine_process.hpp"
#include "files.hpp"
#include "kube/api_server.hpp"

namespace ganglion::e2e {

/// `ganglion run --from-cluster` without `-f`, through a kubeconfig of `server` (with `token`
/// when given; its context namespace `default`), then `more` arguments.
inline engine_options from_cluster(const test::kube::api_server& server,
                                   std::vector<std::string> more = {},
                                   const std::string& token = {}) {
  auto path = test::temp_dir() + "/kubeconfig";
  test::write_file(path, server.kubeconfig(token));
  engine_options options;
  options.manifest_file = false;
  options.extra_args = {"--from-cluster", "--kubeconfig", path};
  options.extra_args.insert(options.extra_args.end(), more.begin(), more.end());
  return options;
}

/// A Sensor with one dependency `d` on `event_source`/`event` whose HTTP trigger `t` POSTs
/// `{<dest>: <the event's data_key>}` to `url`.
struct posting_sensor_spec {
  std::string ns = "default";
  std::string name;
  std::string event_source;
  std::string event = "example";
  std::string url;
  std::string data_key = "body";
  std::string dest = "body";
};

/// The Sensor `spec` describes, as the API server stores it.
inline nlohmann::json posting_sensor(const posting_sensor_spec& spec) {
  using json = nlohmann::json;
  json payload = json::array(
    {{{"src", {{"dependencyName", "d"}, {"dataKey", spec.data_key}}}, {"dest", spec.dest}}});
  json trigger{
    {"template",
     {{"name", "t"},
      {"http", {{"url", spec.url}, {"method", "POST"}, {"payload", std::move(payload)}}}}}};
  json dependency{
    {"name", "d"}, {"eventSourceName", spec.event_source}, {"eventName", spec.event}};
  return {{"apiVersion", "argoproj.io/v1alpha1"},
          {"kind", "Sensor"},
          {"metadata", {{"name", spec.name}, {"namespace", spec.ns}}},
          {"spec",
           {{"dependencies", json::array({dependency})}, {"triggers", json::array({trigger})}}}};
}

} // namespace ganglion::e2e
