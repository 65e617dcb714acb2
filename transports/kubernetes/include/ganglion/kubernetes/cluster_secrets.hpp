#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>

#include "ganglion/kubernetes/client.hpp"

namespace ganglion::kubernetes {

/// The Secrets of one namespace, listed and watched through the API (cluster mode's secret
/// store): a read answers from what the watch knows, so a changed Secret is read at its next
/// use. Thread-safe; runs until destroyed.
class cluster_secrets {
public:
  /// Starts the watch of `/api/v1/namespaces/<namespace_name>/secrets`.
  cluster_secrets(std::shared_ptr<api_client> client, std::string namespace_name);
  ~cluster_secrets();
  cluster_secrets(const cluster_secrets&) = delete;
  cluster_secrets& operator=(const cluster_secrets&) = delete;

  /// The base64-decoded `data[key]` of Secret `name` (one trailing newline removed, as a
  /// mounted file is read), waiting up to `wait` for the first list; nullopt with `error` set
  /// (the Secret or key is missing, or the Secrets cannot be listed: the API's message).
  std::optional<std::string> read(const std::string& name, const std::string& key,
                                  std::string* error = nullptr,
                                  std::chrono::milliseconds wait = std::chrono::seconds(10)) const;

  /// The namespace read.
  const std::string& namespace_name() const noexcept;

private:
  struct impl;
  std::shared_ptr<api_client> client_;
  std::shared_ptr<impl> impl_;
};

} // namespace ganglion::kubernetes
