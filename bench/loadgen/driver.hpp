#pragma once

// The seam between the schedulers (when to send) and a transport (how to send). HTTP is the
// first driver; a NATS or Kafka driver implements the same interface.

#include <cstddef>
#include <cstdint>

namespace ganglion::loadgen {

/// How one request ended.
enum class outcome : std::uint8_t {
  ok,           ///< 2xx
  client_error, ///< 4xx
  server_error, ///< 5xx other than 503
  saturated,    ///< 503: the engine refused under back-pressure
  other,        ///< 1xx or 3xx
  error,        ///< the connection broke or the reply could not be parsed
  timeout,      ///< no reply within the timeout
};

/// One request as the scheduler hands it to a driver.
struct ticket {
  std::uint64_t seq = 0;      ///< unique across connections and threads
  std::int64_t start_ns = 0;  ///< latency counts from here: write start, or the scheduled time
  bool measured = false;      ///< false during the warmup
};

/// Receives a driver's events; every call happens on the driver's io thread.
class driver_listener {
public:
  virtual ~driver_listener() = default;
  /// Connection `slot` can take a request (after connecting, and after each reply on a
  /// connection that stays open).
  virtual void on_ready(std::size_t slot) = 0;
  /// The request on `slot` ended at `done_ns`; on_ready follows once the slot is usable again.
  virtual void on_done(std::size_t slot, const ticket& t, outcome result,
                       std::int64_t done_ns) = 0;
  /// A connection attempt failed; the driver retries on its own.
  virtual void on_connect_error() = 0;
};

/// Counters a driver keeps about its connections.
struct driver_stats {
  std::uint64_t connects = 0;       ///< connections established, including reconnects
  std::uint64_t connect_errors = 0; ///< failed connection attempts
};

/// A set of connections (slots) to the system under test, driven from one io thread.
class driver {
public:
  virtual ~driver() = default;
  /// Opens the connections; on_ready reports each one that is usable.
  virtual void start(driver_listener& listener) = 0;
  /// Sends the request `t` on `slot`, which must be ready.
  virtual void send_next(std::size_t slot, const ticket& t) = 0;
  /// Closes every connection; no listener call follows.
  virtual void stop() = 0;
  /// Number of slots.
  virtual std::size_t slots() const = 0;
  /// Connection counters so far.
  virtual driver_stats stats() const = 0;
};

} // namespace ganglion::loadgen
