#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace ganglion::http {

/// Header fields in arrival order, names as sent.
using header_list = std::vector<std::pair<std::string, std::string>>;

/// An HTTP request as a route handler receives it (the body is read completely).
struct request {
  std::string method;
  std::string target; ///< as sent: path and query
  std::string path;   ///< the target up to `?`
  std::string query;  ///< the target after `?`, not decoded
  header_list headers;
  std::string body;
  std::string remote_address;

  /// The first value of header `name` (case-insensitive), "" when absent.
  std::string header(std::string_view name) const;
};

/// Decoded query parameters: key → values in order of appearance.
using query_values = std::map<std::string, std::vector<std::string>>;

/// Go's url.ParseQuery: pairs split on `&`, `+` and `%XX` decoded; pairs with `;` or a bad
/// escape are skipped.
query_values parse_query(std::string_view query);

/// An HTTP response a route handler sends.
struct response {
  int status = 200;
  std::string body;
  std::string content_type = "text/plain; charset=utf-8";
  header_list headers; ///< extra fields (Content-Length is computed)
};

/// A text/plain response.
response text_response(int status, std::string body);

/// Sends the one response to a request. Copies share that one reply: the first call sends it and
/// later calls do nothing. Callable from any thread, at any time after the handler returned.
/// When the last copy is dropped without a reply, the client receives 500.
class responder {
public:
  /// Writes a response; the server provides it.
  using send_function = std::function<void(response&&)>;

  /// A responder that forwards the first reply to `send`.
  explicit responder(send_function send);

  /// Sends `r` unless a response was already sent.
  void operator()(response r) const;

  /// True once a response was sent.
  bool replied() const noexcept;

private:
  struct state;
  std::shared_ptr<state> state_;
};

/// Serves one route; may reply later (from any thread) through the responder.
using handler = std::function<void(request&&, responder)>;

/// A PEM certificate chain and private key: the listener serves HTTPS with them.
struct tls_identity {
  std::string certificate_chain_pem;
  std::string private_key_pem;

  /// Equal when both PEM texts are equal.
  bool operator==(const tls_identity&) const = default;
};

/// Per-route settings.
struct route_options {
  /// Largest accepted body in bytes; checked from Content-Length before reading, and while
  /// reading a chunked body. Larger requests get 413.
  std::size_t body_limit = 1048576;
  /// Called (on an io thread) whenever the server answers 413 for this route.
  std::function<void()> on_too_large;
  /// Serve this route's listener over TLS; every route of one listener must agree.
  std::optional<tls_identity> tls;
};

/// Server-wide settings.
struct server_options {
  /// Threads running the io_context.
  std::size_t threads = 2;
  /// Largest accepted request line plus header fields, in bytes (larger: 431).
  std::uint32_t header_limit = 16384;
  /// Time allowed to receive one request (from the first byte awaited to the end of its body),
  /// which is also how long an idle keep-alive connection stays open.
  std::chrono::milliseconds read_timeout{30000};
  /// Time allowed to write one response.
  std::chrono::milliseconds write_timeout{30000};
  /// Open connections per listener; one more is answered 503 and closed at once.
  std::size_t max_connections = 4096;
};

/// Raised when a route cannot be registered (address in use, duplicate path, bad TLS material).
class server_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

class server_pool;

/// A registered route; destroying (or resetting) it unregisters the path, and the listener
/// closes (releasing its port) when its last route goes.
class route {
public:
  /// An empty handle.
  route() noexcept;
  /// Unregisters the route.
  ~route();
  /// Takes over the registration of `other`.
  route(route&& other) noexcept;
  /// Unregisters this route, then takes over the registration of `other`.
  route& operator=(route&& other) noexcept;
  route(const route&) = delete;
  route& operator=(const route&) = delete;

  /// Unregisters the route now.
  void reset() noexcept;

  /// The port the route listens on (the bound port when 0 was asked for).
  std::uint16_t port() const noexcept;

  /// The address its listener is bound to: `127.0.0.1:12000`, `[::1]:12000`; empty when the
  /// handle is empty.
  std::string address() const;

  /// True while registered.
  explicit operator bool() const noexcept;

private:
  friend class server_pool;
  struct registration;
  explicit route(std::unique_ptr<registration> reg) noexcept;
  std::unique_ptr<registration> reg_;
};

/// HTTP/1.1 servers sharing one io_context run by a few threads. Opens one listener per
/// (host, port) on demand and routes requests by exact path. Every listener answers
/// `GET /health` with 200 "OK" unless a route claims that path; unknown paths get 404.
/// Thread-safe.
class server_pool {
public:
  /// Starts the io threads.
  explicit server_pool(server_options options = {});
  /// Closes every listener and connection and joins the io threads.
  ~server_pool();
  server_pool(const server_pool&) = delete;
  server_pool& operator=(const server_pool&) = delete;

  /// Serves `path` on host:port with `h`, opening the listener if needed (port 0: a new
  /// listener on a free port). A `path` ending in `/*` serves every path under it that no
  /// other route serves exactly (the longest such prefix wins). Throws server_error, e.g.
  /// `address 127.0.0.1:12000 already in use`, or when the path is already registered on that
  /// listener.
  route add_route(const std::string& host, std::uint16_t port, const std::string& path, handler h,
                  route_options options = {});

  /// Number of open listeners.
  std::size_t listener_count() const;

  /// The settings the pool runs with.
  const server_options& options() const noexcept;

private:
  friend class route;
  struct impl;
  std::shared_ptr<impl> impl_;
};

} // namespace ganglion::http
