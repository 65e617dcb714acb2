#pragma once

// Header only (a test that includes it links librabbitmq): the test side of a RabbitMQ broker,
// a plain librabbitmq client that publishes with publisher confirms and counts the messages a
// queue holds.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <amqp.h>
#include <amqp_tcp_socket.h>

namespace ganglion::test {

/// Properties of one published message (unset: left out).
struct message_properties {
  std::optional<std::string> content_type, content_encoding, correlation_id, reply_to,
    expiration, message_id, type, app_id;
  std::optional<std::uint8_t> delivery_mode, priority;
  std::optional<std::uint64_t> timestamp;
};

/// One connection with channel 1 in confirm mode.
class amqp_client {
public:
  /// Connects to 127.0.0.1:`port` as guest. Throws std::runtime_error.
  explicit amqp_client(std::uint16_t port) : conn_(amqp_new_connection()) {
    auto* socket = amqp_tcp_socket_new(conn_);
    if (amqp_socket_open(socket, "127.0.0.1", port) != AMQP_STATUS_OK)
      refuse("test client: cannot connect");
    auto r = amqp_login(conn_, "/", 0, 131072, 0, AMQP_SASL_METHOD_PLAIN, "guest", "guest");
    if (r.reply_type != AMQP_RESPONSE_NORMAL)
      refuse("test client: login refused");
    amqp_channel_open(conn_, 1);
    expect("channel.open");
    amqp_confirm_select(conn_, 1);
    expect("confirm.select");
  }
  /// Closes the channel and the connection.
  ~amqp_client() {
    amqp_channel_close(conn_, 1, AMQP_REPLY_SUCCESS);
    amqp_connection_close(conn_, AMQP_REPLY_SUCCESS);
    amqp_destroy_connection(conn_);
  }
  amqp_client(const amqp_client&) = delete;
  amqp_client& operator=(const amqp_client&) = delete;

  /// Publishes and waits until the broker confirms it has the message (on disk for a
  /// persistent message to a durable queue).
  void publish(const std::string& exchange, const std::string& routing_key,
               const std::string& body, const message_properties& p = {}) {
    amqp_basic_properties_t props{};
    auto text = [&](const std::optional<std::string>& v, amqp_bytes_t& field, amqp_flags_t flag) {
      if (v) {
        field = amqp_cstring_bytes(v->c_str());
        props._flags |= flag;
      }
    };
    text(p.content_type, props.content_type, AMQP_BASIC_CONTENT_TYPE_FLAG);
    text(p.content_encoding, props.content_encoding, AMQP_BASIC_CONTENT_ENCODING_FLAG);
    text(p.correlation_id, props.correlation_id, AMQP_BASIC_CORRELATION_ID_FLAG);
    text(p.reply_to, props.reply_to, AMQP_BASIC_REPLY_TO_FLAG);
    text(p.expiration, props.expiration, AMQP_BASIC_EXPIRATION_FLAG);
    text(p.message_id, props.message_id, AMQP_BASIC_MESSAGE_ID_FLAG);
    text(p.type, props.type, AMQP_BASIC_TYPE_FLAG);
    text(p.app_id, props.app_id, AMQP_BASIC_APP_ID_FLAG);
    if (p.delivery_mode) {
      props.delivery_mode = *p.delivery_mode;
      props._flags |= AMQP_BASIC_DELIVERY_MODE_FLAG;
    }
    if (p.priority) {
      props.priority = *p.priority;
      props._flags |= AMQP_BASIC_PRIORITY_FLAG;
    }
    if (p.timestamp) {
      props.timestamp = *p.timestamp;
      props._flags |= AMQP_BASIC_TIMESTAMP_FLAG;
    }
    amqp_bytes_t bytes{body.size(), const_cast<char*>(body.data())};
    if (amqp_basic_publish(conn_, 1, amqp_cstring_bytes(exchange.c_str()),
                           amqp_cstring_bytes(routing_key.c_str()), 0, 0, &props, bytes)
        != AMQP_STATUS_OK)
      throw std::runtime_error("test client: publish failed");
    amqp_frame_t frame;
    for (;;) {
      if (amqp_simple_wait_frame(conn_, &frame) != AMQP_STATUS_OK)
        throw std::runtime_error("test client: no confirm");
      if (frame.frame_type != AMQP_FRAME_METHOD)
        continue;
      if (frame.payload.method.id == AMQP_BASIC_ACK_METHOD)
        return;
      if (frame.payload.method.id == AMQP_BASIC_NACK_METHOD)
        throw std::runtime_error("test client: the broker refused the message");
    }
  }

  /// Messages ready in `queue` (not delivered to a consumer, or delivered and requeued).
  std::uint32_t ready(const std::string& queue) {
    auto* ok = amqp_queue_declare(conn_, 1, amqp_cstring_bytes(queue.c_str()), 1, 0, 0, 0,
                                  amqp_empty_table);
    expect("queue.declare passive");
    return ok->message_count;
  }

  /// Declares `exchange` as the source would by default (durable).
  void declare_exchange(const std::string& exchange, const std::string& type) {
    amqp_exchange_declare(conn_, 1, amqp_cstring_bytes(exchange.c_str()),
                          amqp_cstring_bytes(type.c_str()), 0, 1, 0, 0, amqp_empty_table);
    expect("exchange.declare");
  }

private:
  /// Frees the connection (no destructor runs for a constructor that throws) and throws.
  [[noreturn]] void refuse(const char* why) {
    amqp_destroy_connection(conn_);
    throw std::runtime_error(why);
  }

  void expect(const char* what) {
    if (amqp_get_rpc_reply(conn_).reply_type != AMQP_RESPONSE_NORMAL)
      throw std::runtime_error(std::string{"test client: "} + what + " failed");
  }

  amqp_connection_state_t conn_;
};

} // namespace ganglion::test
