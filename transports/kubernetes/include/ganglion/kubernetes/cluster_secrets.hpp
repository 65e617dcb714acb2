#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/kubernetes/client.hpp"

namespace ganglion::kubernetes {

/// The Secrets of the namespaces cluster mode serves, listed and watched through the API
/// (cluster mode's secret store): a read answers from what the watches know, so a changed
/// Secret is read at its next use, and a read in one namespace never sees another's Secrets.
/// Thread-safe; runs until destroyed.
class cluster_secrets {
public:
  /// Starts one watch of `/api/v1/namespaces/<ns>/secrets` per namespace of `namespaces`, or
  /// (`namespaces` empty) one watch of `/api/v1/secrets` for every namespace. A read with an
  /// empty namespace reads `default_namespace`'s.
  cluster_secrets(std::shared_ptr<api_client> client, std::vector<std::string> namespaces,
                  std::string default_namespace);
  ~cluster_secrets();
  cluster_secrets(const cluster_secrets&) = delete;
  cluster_secrets& operator=(const cluster_secrets&) = delete;

  /// The base64-decoded `data[key]` of Secret `name` of namespace `namespace_name` (one
  /// trailing newline removed, as a mounted file is read), waiting up to `wait` for the first
  /// list; nullopt with `error` set naming namespace, Secret and key (the Secret or key is
  /// missing, or the Secrets cannot be listed: the API's message). A namespace outside those
  /// given is watched from its first read.
  std::optional<std::string> read(const std::string& namespace_name, const std::string& name,
                                  const std::string& key, std::string* error = nullptr,
                                  std::chrono::milliseconds wait = std::chrono::seconds(10)) const;

  /// Calls `changed` (on a watch's thread) after each list or change of a Secret.
  void on_change(std::function<void()> changed);

  /// The namespace an empty namespace reads.
  const std::string& default_namespace() const noexcept;

private:
  struct impl;
  std::shared_ptr<impl> impl_;
};

} // namespace ganglion::kubernetes
