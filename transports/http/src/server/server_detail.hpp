#pragma once

// Private to ganglion_http: the Beast listener and session behind server_pool.

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/steady_timer.hpp>

#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/http/server.hpp"

namespace ganglion::http::detail {

namespace asio = boost::asio;

/// The io_context and settings shared by the pool, its listeners and their sessions; it lives
/// until the last session is gone.
struct io_runtime {
  explicit io_runtime(server_options opts) : options(std::move(opts)) {}
  asio::io_context context;
  server_options options;
  std::atomic<bool> stopped{false};
};

/// A registered path.
struct route_entry {
  handler serve;
  route_options options;
};

/// A connection the listener can close when it shuts down.
class session_base {
public:
  virtual ~session_base() = default;
  /// Closes the connection (from any thread).
  virtual void close() = 0;
};

/// One listening socket with its route table and its open connections.
class listener : public std::enable_shared_from_this<listener> {
public:
  listener(std::shared_ptr<io_runtime> io, std::optional<tls_identity> tls);

  /// Binds and listens; throws server_error.
  void open(const std::string& host, std::uint16_t port);
  /// Stops accepting and closes every connection.
  void close();
  /// True once closed.
  bool closed() const noexcept { return closed_.load(); }
  /// The bound port.
  std::uint16_t port() const noexcept { return port_; }
  /// The bound address, `host:port` (`[v6]:port`).
  const std::string& address() const noexcept { return address_; }
  /// The TLS identity, when the listener serves HTTPS.
  const std::optional<tls_identity>& tls() const noexcept { return tls_; }
  /// The TLS context, when the listener serves HTTPS.
  asio::ssl::context* ssl_context() noexcept { return ssl_.get(); }
  /// Shared io state.
  io_runtime& io() noexcept { return *io_; }
  /// Keeps the io state alive.
  const std::shared_ptr<io_runtime>& io_ptr() const noexcept { return io_; }

  /// Adds a route; throws server_error when the path is taken.
  void add(const std::string& path, std::shared_ptr<const route_entry> entry);
  /// Removes a route; returns true when no route is left.
  bool remove(const std::string& path);
  /// The route for `path`, or nullptr.
  std::shared_ptr<const route_entry> find(std::string_view path) const;
  /// True once the last route went: the listener is closing, and a request read meanwhile
  /// is answered 503 (retry elsewhere), not 404.
  bool closing() const;

  /// Registers an open connection; returns its id for forget().
  std::uint64_t track(std::weak_ptr<session_base> session);
  /// Unregisters a closed connection.
  void forget(std::uint64_t id);

private:
  void accept();
  void on_accept(const boost::system::error_code& ec, asio::ip::tcp::socket socket);
  /// Answers 503 and closes `socket` when the listener holds max_connections already.
  bool refused_over_limit(asio::ip::tcp::socket& socket);

  std::shared_ptr<io_runtime> io_;
  std::optional<tls_identity> tls_;
  std::unique_ptr<asio::ssl::context> ssl_;
  std::mutex acceptor_mutex_;
  asio::ip::tcp::acceptor acceptor_;
  asio::steady_timer retry_timer_;
  std::atomic<bool> closed_{false};
  std::uint16_t port_ = 0;
  std::string address_;

  mutable std::mutex mutex_;
  std::map<std::string, std::shared_ptr<const route_entry>, std::less<>> routes_;
  std::map<std::uint64_t, std::weak_ptr<session_base>> sessions_;
  std::uint64_t next_session_ = 0;
  core::log_throttle refusal_log_{std::chrono::seconds(10)};
};

/// Serves one accepted connection (plain or TLS, as the listener says).
void start_session(std::shared_ptr<listener> owner, asio::ip::tcp::socket socket);

} // namespace ganglion::http::detail
