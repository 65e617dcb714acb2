#include "source/namespaced_publisher.hpp"

namespace ganglion::core {

namespaced_publisher::namespaced_publisher(std::string namespace_name,
                                           std::shared_ptr<bus_publisher> bus)
  : namespace_(std::move(namespace_name)), bus_(std::move(bus)) {}

void namespaced_publisher::publish(event&& e, publish_done done) {
  e.namespace_ = namespace_;
  bus_->publish(std::move(e), std::move(done));
}

} // namespace ganglion::core
