#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <thread>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>

#include "histogram.hpp"
#include "seq_table.hpp"

namespace ganglion::loadgen {

/// What the sink counted so far.
struct sink_counts {
  std::uint64_t arrived = 0;   ///< first arrivals of measured requests
  std::uint64_t duplicate = 0; ///< further arrivals of the same seq
  std::uint64_t unmatched = 0; ///< no seq in the body, or a seq never sent
  std::uint64_t warmup = 0;    ///< arrivals of warmup requests (ignored)
  histogram latency;           ///< arrival − the request's start time, first arrivals only
};

/// The end-to-end sink: an HTTP/1.1 server on its own io thread that answers every request with
/// 200 and matches each body to the request that caused it by its first `"seq"` (find_seq),
/// through `table`.
class sink {
public:
  /// Listens on host:port (port 0: any free port). Throws std::runtime_error when it cannot.
  sink(const std::string& host, std::uint16_t port, seq_table& table);
  /// Stops serving and joins the io thread.
  ~sink();
  sink(const sink&) = delete;
  sink& operator=(const sink&) = delete;

  /// The bound port.
  std::uint16_t port() const noexcept { return port_; }
  /// The counts so far (readable while the sink runs).
  sink_counts counts() const;
  /// Stops serving: later arrivals are refused. Idempotent.
  void stop();

private:
  class session;
  void accept();
  void on_body(std::string_view body, std::int64_t now_ns) noexcept;

  seq_table& table_;
  boost::asio::io_context io_{1};
  boost::asio::ip::tcp::acceptor acceptor_;
  std::uint16_t port_ = 0;
  std::atomic<std::uint64_t> arrived_{0}, duplicate_{0}, unmatched_{0}, warmup_{0};
  histogram latency_;
  std::thread thread_;
};

/// Splits "host:port" (the host may be a bracketed IPv6 address); throws std::runtime_error.
std::pair<std::string, std::uint16_t> split_host_port(const std::string& address);

} // namespace ganglion::loadgen
