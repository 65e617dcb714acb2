#pragma once

// What the Beast-based test servers of this folder share (their .cpp files only; it exposes
// Boost): the accepting thread on 127.0.0.1 and a request as git-http-backend's CGI sees it.

#include <atomic>
#include <cstdint>
#include <functional>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/http.hpp>

#include "git_http_backend.hpp"

namespace ganglion::test {

/// Accepts on 127.0.0.1 (a free port) and runs `serve_one` for each connection, one at a time
/// on its own thread, until destroyed.
class loopback_acceptor {
public:
  explicit loopback_acceptor(std::function<void(boost::asio::ip::tcp::socket&)> serve_one);
  /// Wakes the accepting thread with a connection of its own and joins it.
  ~loopback_acceptor();
  loopback_acceptor(const loopback_acceptor&) = delete;
  loopback_acceptor& operator=(const loopback_acceptor&) = delete;

  /// The bound port.
  std::uint16_t port() const;

private:
  std::function<void(boost::asio::ip::tcp::socket&)> serve_one_;
  boost::asio::io_context context_;
  boost::asio::ip::tcp::acceptor acceptor_{context_};
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

/// `request` as git-http-backend's CGI environment: method, path and query of its target,
/// content type and encoding, `Git-Protocol`, body.
cgi_request cgi_request_of(const boost::beast::http::request<boost::beast::http::string_body>& request);

} // namespace ganglion::test
