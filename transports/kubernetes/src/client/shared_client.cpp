#include "client/shared_client.hpp"

#include <map>
#include <mutex>

namespace ganglion::kubernetes::detail {

std::shared_ptr<api_client> shared_client(const options& opts) {
  static std::mutex mutex;
  // Weak: the client lives while a trigger uses it, and is made again after a reload that
  // stopped them all (a rotated kubeconfig is then read again).
  static std::map<std::string, std::weak_ptr<api_client>> clients;
  std::lock_guard guard{mutex};
  auto& slot = clients[opts.kubeconfig];
  if (auto client = slot.lock())
    return client;
  auto config = load_config(config_sources::from_environment(opts.kubeconfig));
  auto client = std::make_shared<api_client>(std::move(config), opts.client);
  slot = client;
  return client;
}

} // namespace ganglion::kubernetes::detail
