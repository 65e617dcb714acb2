#include "ganglion/kubernetes/config.hpp"

#include <cstdlib>
#include <vector>

#include "client/text_file.hpp"

namespace ganglion::kubernetes {

namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

/// The `:`-separated entries of `list`, empty ones left out.
std::vector<std::string> entries(const std::string& list) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= list.size()) {
    auto end = list.find(':', start);
    if (end == std::string::npos)
      end = list.size();
    if (end > start)
      out.push_back(list.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

} // namespace

config_sources config_sources::from_environment(std::string kubeconfig_flag) {
  config_sources sources;
  sources.kubeconfig_flag = std::move(kubeconfig_flag);
  sources.kubeconfig_env = env("KUBECONFIG");
  sources.home = env("HOME");
  sources.service_host = env("KUBERNETES_SERVICE_HOST");
  sources.service_port = env("KUBERNETES_SERVICE_PORT");
  return sources;
}

// Like client-go's loading rules, except that the files of a $KUBECONFIG list are not merged:
// the first one that exists is read alone. As there, a set $KUBECONFIG hides ~/.kube/config.
cluster_config load_config(const config_sources& sources) {
  if (!sources.kubeconfig_flag.empty())
    return read_kubeconfig(sources.kubeconfig_flag);
  std::vector<std::string> looked_at;
  if (!sources.kubeconfig_env.empty()) {
    for (const auto& path : entries(sources.kubeconfig_env)) {
      if (detail::is_file(path))
        return read_kubeconfig(path);
    }
    looked_at.push_back("$KUBECONFIG=" + sources.kubeconfig_env + " names no existing file");
  } else if (!sources.home.empty()) {
    auto path = sources.home + "/.kube/config";
    if (detail::is_file(path))
      return read_kubeconfig(path);
    looked_at.push_back("$KUBECONFIG is not set, " + path + " does not exist");
  } else {
    looked_at.push_back("$KUBECONFIG and $HOME are not set");
  }
  if (!sources.service_host.empty() || !sources.service_port.empty())
    return read_in_cluster(sources.service_host, sources.service_port, sources.service_account_dir);
  looked_at.push_back("not in a cluster ($KUBERNETES_SERVICE_HOST is not set)");
  std::string message = "no Kubernetes configuration: --kubeconfig not given";
  for (const auto& place : looked_at)
    message += ", " + place;
  throw config_error(message);
}

} // namespace ganglion::kubernetes
