#include "mqtt_publisher.hpp"

#include <chrono>
#include <stdexcept>

#include <mosquitto.h>

namespace ganglion::test {

mqtt_publisher::mqtt_publisher(int port, const std::string& user, const std::string& password) {
  mosquitto_lib_init();
  client_ = mosquitto_new(nullptr, true, this);
  if (client_ == nullptr)
    throw std::runtime_error("mosquitto_new failed");
  if (!user.empty())
    mosquitto_username_pw_set(client_, user.c_str(), password.c_str());
  mosquitto_connect_callback_set(client_, [](struct mosquitto*, void* self, int rc) {
    auto* p = static_cast<mqtt_publisher*>(self);
    {
      std::lock_guard guard{p->mutex_};
      p->connected_ = rc == 0;
    }
    p->acked_changed_.notify_all();
  });
  mosquitto_publish_callback_set(client_, [](struct mosquitto*, void* self, int mid) {
    auto* p = static_cast<mqtt_publisher*>(self);
    {
      std::lock_guard guard{p->mutex_};
      p->acked_.insert(mid);
    }
    p->acked_changed_.notify_all();
  });
  if (int rc = mosquitto_connect(client_, "127.0.0.1", port, 30); rc != MOSQ_ERR_SUCCESS) {
    mosquitto_destroy(client_);
    throw std::runtime_error(std::string{"test publisher cannot connect: "}
                             + mosquitto_strerror(rc));
  }
  mosquitto_loop_start(client_);
  std::unique_lock lock{mutex_};
  if (!acked_changed_.wait_for(lock, std::chrono::seconds(5), [this] { return connected_; })) {
    lock.unlock();
    mosquitto_disconnect(client_);
    mosquitto_loop_stop(client_, false);
    mosquitto_destroy(client_);
    throw std::runtime_error("test publisher: the broker did not accept the connection");
  }
}

mqtt_publisher::~mqtt_publisher() {
  mosquitto_disconnect(client_);
  mosquitto_loop_stop(client_, false);
  mosquitto_destroy(client_);
}

bool mqtt_publisher::publish(const std::string& topic, const std::string& payload, bool retain) {
  int mid = 0;
  if (mosquitto_publish(client_, &mid, topic.c_str(), static_cast<int>(payload.size()),
                        payload.data(), 1, retain) != MOSQ_ERR_SUCCESS)
    return false;
  std::unique_lock lock{mutex_};
  return acked_changed_.wait_for(lock, std::chrono::seconds(5),
                                 [&] { return acked_.count(mid) > 0; });
}

} // namespace ganglion::test
