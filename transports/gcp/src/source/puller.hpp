#pragma once

// Private: the thread that pulls one pubSub source's subscription, publishes each message to
// the bus and acknowledges what the bus accepted.

#include <atomic>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "client/api.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/core/internal/source_counters.hpp"
#include "ganglion/gcp/transport.hpp"
#include "source/event_data.hpp"

namespace ganglion::gcp::detail {

/// What a puller publishes and where.
struct puller_target {
  std::string name;         ///< `pubSub source <eventsource>/<event>`, for logs
  std::string subscription; ///< `projects/…/subscriptions/…`
  std::string event_source;
  std::string event_name;
  bool json_body = false;
  std::map<std::string, std::string> metadata;
  std::shared_ptr<core::bus_publisher> bus;
  std::function<void(const std::string&)> fail;
};

/// Pulls on its own thread from construction to destruction.
class puller {
public:
  /// Starts pulling through `pubsub` (whose stopping function is this puller's stopping()).
  puller(puller_target target, const options& opts, const core::source_counters& metrics,
         std::function<std::unique_ptr<api>(std::function<bool()>)> make_api);
  /// Stops: wakes the thread and joins it. Messages on the bus then are neither acknowledged
  /// nor nacked: Pub/Sub delivers them again once their ack deadline passed.
  ~puller();
  puller(const puller&) = delete;
  puller& operator=(const puller&) = delete;

  /// True once stopping.
  bool stopping() const noexcept { return stopping_.load(); }

private:
  void run();
  /// One pull, its publishing and acknowledgement; false when stopping. Throws api_error.
  bool pull_once(std::chrono::milliseconds& retry);
  bool pause(std::chrono::milliseconds delay);
  std::vector<received_message> parse(const std::string& body);
  /// Sends `:acknowledge` or (`nack`) `:modifyAckDeadline` 0 for `ids`; a failure is logged.
  void settle(const std::vector<std::string>& ids, bool nack);

  puller_target target_;
  options opts_;
  const core::source_counters& metrics_;
  std::unique_ptr<api> api_;
  core::log_throttle error_log_;
  core::log_throttle refused_log_;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::condition_variable stop_changed_;
  std::thread thread_;
};

} // namespace ganglion::gcp::detail
