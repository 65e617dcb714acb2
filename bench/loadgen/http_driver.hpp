#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>

#include "body_template.hpp"
#include "driver.hpp"

namespace ganglion::loadgen {

/// What every HTTP request of a run shares.
struct http_request_spec {
  boost::asio::ip::tcp::endpoint endpoint;
  std::string head;            ///< request bytes up to the Content-Length value (request_head)
  const body_template* body;   ///< outlives the driver
  std::chrono::nanoseconds timeout{std::chrono::seconds(10)};
};

/// HTTP/1.1 POSTs over keep-alive connections, all on one io_context. Each connection reuses its
/// request and response buffers and parses replies with status_only_parser, so a request costs
/// two syscalls and no heap allocation. A broken connection reports its request as an error and
/// reconnects; a watchdog closes connections whose reply is later than the timeout.
class http_driver final : public driver {
public:
  /// `connections` slots on `io`; nothing happens before start().
  http_driver(boost::asio::io_context& io, const http_request_spec& spec, std::size_t connections);
  /// Closes what is still open.
  ~http_driver() override;

  void start(driver_listener& listener) override;
  void send_next(std::size_t slot, const ticket& t) override;
  void stop() override;
  std::size_t slots() const override;
  driver_stats stats() const override;

private:
  struct connection;

  void connect(std::size_t slot);
  void read_reply(std::size_t slot);
  void finish(std::size_t slot);
  void fail(std::size_t slot);
  void reconnect(std::size_t slot);
  void watch();

  boost::asio::io_context& io_;
  const http_request_spec& spec_;
  std::vector<std::unique_ptr<connection>> connections_;
  boost::asio::steady_timer watchdog_;
  driver_listener* listener_ = nullptr;
  driver_stats stats_;
  bool stopped_ = false;
};

} // namespace ganglion::loadgen
