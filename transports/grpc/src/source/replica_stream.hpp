#pragma once

// Private: a generic source's stream from one replica of its signal service.

#include <atomic>
#include <condition_variable>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include "source/bus_window.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/model/common.hpp"
#include "ganglion/grpc/transport.hpp"
#include "source/source_health.hpp"
#include "source/source_metrics.hpp"

namespace grpc {
class ClientContext;
}

namespace ganglion::grpc::detail {

/// What every stream of one generic source shares.
struct stream_setup {
  std::string name;         ///< `generic source <eventsource>/<event>`, for logs
  std::string event_source; ///< the CloudEvents `source`
  std::string event_name;   ///< the CloudEvents `subject`, and EventSource.name
  std::string config;       ///< EventSource.config
  bool json_body = false;
  std::map<std::string, std::string> metadata;
  bool tls = false;
  std::string root_pem;    ///< CAs for TLS; empty: the system's
  std::string server_name; ///< the url's host, which the certificate must carry
  std::string authority;   ///< the url's `host:port`
  std::optional<dsl::secret_key_selector> auth_secret;
  std::shared_ptr<const core::secret_store> secrets;
  options opts;
};

/// Reads the event stream of one replica (one address) on a thread of its own, reconnecting
/// with backoff, until stopped or until the source gives up (source_health). Destroying it
/// cancels the stream (the service sees the call cancelled) and joins the thread.
class replica_stream {
public:
  replica_stream(std::shared_ptr<const stream_setup> setup, std::string address,
                 std::shared_ptr<bus_window> window, std::shared_ptr<source_health> health,
                 std::shared_ptr<const source_metrics> metrics);
  ~replica_stream();
  replica_stream(const replica_stream&) = delete;
  replica_stream& operator=(const replica_stream&) = delete;

  /// Cancels the stream and ends the thread's waits; the destructor joins it.
  void stop();

  /// The gRPC target of the replica (`ipv4:127.0.0.1:5000`).
  const std::string& address() const noexcept { return address_; }

private:
  /// How one attempt ended.
  struct attempt_result {
    bool healthy = false; ///< the stream delivered an event or stayed open long enough
    std::string error;    ///< why it ended (empty: stopped)
  };

  void run();
  attempt_result attempt();
  /// Publishes one message's payload; false when the source is stopping.
  bool handle(const std::string& payload);
  /// Waits `delay` unless stopped first; false when stopped.
  bool pause(std::chrono::milliseconds delay);

  std::shared_ptr<const stream_setup> setup_;
  std::string address_;
  std::shared_ptr<bus_window> window_;
  std::shared_ptr<source_health> health_;
  std::shared_ptr<const source_metrics> metrics_;
  core::log_throttle bad_payload_log_;
  core::log_throttle failure_log_{std::chrono::seconds(60)};

  std::mutex mutex_;
  std::condition_variable stopped_changed_;
  bool stopping_ = false;
  ::grpc::ClientContext* call_ = nullptr; ///< the open call, for stop() to cancel
  std::thread thread_;
};

} // namespace ganglion::grpc::detail
