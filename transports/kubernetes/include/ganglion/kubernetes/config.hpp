#pragma once

#include <stdexcept>
#include <string>

namespace ganglion::kubernetes {

/// Where the API server is and how to authenticate to it: a kubeconfig context, or the pod's
/// service account.
struct cluster_config {
  /// `https://host:port` (or `http://…`), without a trailing slash.
  std::string server;
  /// PEM of the CAs trusted for `server`; empty: the system store.
  std::string ca_pem;
  bool insecure_skip_tls_verify = false;
  /// Bearer token given inline; `token_file` wins when both are set.
  std::string token;
  /// Bearer token read from this file, and read again as Kubernetes rotates it.
  std::string token_file;
  /// Client certificate and key (PEM) for mutual TLS.
  std::string client_certificate_pem;
  std::string client_key_pem;
  /// HTTP basic credentials (kubeconfig `username`/`password`).
  std::string username;
  std::string password;
  /// The context's namespace, the service account's, or `default`.
  std::string default_namespace = "default";
  /// Where this came from, for messages: `kubeconfig /p (context c)` or `in-cluster`.
  std::string origin;
};

/// A configuration that cannot be found or read; the message names the file and the field.
class config_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// Where load_config() looks, in order; the defaults are the process's.
struct config_sources {
  /// `--kubeconfig PATH`; empty when not given.
  std::string kubeconfig_flag;
  /// `$KUBECONFIG` (its first existing entry when it lists several, `:`-separated).
  std::string kubeconfig_env;
  /// `$HOME`, for `~/.kube/config`.
  std::string home;
  /// `$KUBERNETES_SERVICE_HOST` and `$KUBERNETES_SERVICE_PORT`.
  std::string service_host;
  std::string service_port;
  /// The service account's token, ca.crt and namespace.
  std::string service_account_dir = "/var/run/secrets/kubernetes.io/serviceaccount";

  /// The sources of this process: its environment, `kubeconfig_flag` given.
  static config_sources from_environment(std::string kubeconfig_flag = {});
};

/// The configuration `sources` lead to: `--kubeconfig`, else `$KUBECONFIG`, else
/// `~/.kube/config` when it exists, else in-cluster. Throws config_error (naming every place
/// looked at when none applies).
cluster_config load_config(const config_sources& sources);

/// The current context of the kubeconfig at `path` (or `context` when given): server, CA
/// (file or data), insecure-skip-tls-verify, token / tokenFile, client certificate and key
/// (file or data), username/password, namespace. Relative file names are resolved against the
/// kubeconfig's directory. Throws config_error.
cluster_config read_kubeconfig(const std::string& path, const std::string& context = {});

/// The in-cluster configuration: `https://host:port`, the service account's token file, CA and
/// namespace under `service_account_dir`. Throws config_error.
cluster_config read_in_cluster(const std::string& host, const std::string& port,
                               const std::string& service_account_dir);

} // namespace ganglion::kubernetes
