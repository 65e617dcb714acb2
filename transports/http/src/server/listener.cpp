#include "server/server_detail.hpp"

#include <vector>

#include <boost/asio/ip/address.hpp>
#include <boost/asio/socket_base.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/system/system_error.hpp>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace ganglion::http::detail {

namespace {

using tcp = asio::ip::tcp;

std::string describe(const std::string& host, std::uint16_t port) {
  if (host.find(':') != std::string::npos)
    return fmt::format("[{}]:{}", host, port);
  return fmt::format("{}:{}", host, port);
}

tcp::endpoint resolve(asio::io_context& context, const std::string& host, std::uint16_t port) {
  boost::system::error_code ec;
  auto address = asio::ip::make_address(host.empty() ? "0.0.0.0" : host, ec);
  if (!ec)
    return {address, port};
  tcp::resolver resolver{context};
  auto results = resolver.resolve(host, std::to_string(port), ec);
  if (ec || results.empty())
    throw server_error(fmt::format("cannot listen on {}: unknown host ({})", describe(host, port),
                                   ec ? ec.message() : "no address"));
  return results.begin()->endpoint();
}

std::unique_ptr<asio::ssl::context> make_ssl_context(const tls_identity& identity) {
  auto context = std::make_unique<asio::ssl::context>(asio::ssl::context::tls_server);
  try {
    context->set_options(asio::ssl::context::default_workarounds | asio::ssl::context::no_sslv2 |
                         asio::ssl::context::no_sslv3 | asio::ssl::context::no_tlsv1 |
                         asio::ssl::context::no_tlsv1_1 | asio::ssl::context::single_dh_use);
    context->use_certificate_chain(asio::buffer(identity.certificate_chain_pem));
  } catch (const boost::system::system_error& e) {
    throw server_error(fmt::format("invalid TLS server certificate: {}", e.code().message()));
  }
  try {
    context->use_private_key(asio::buffer(identity.private_key_pem), asio::ssl::context::pem);
  } catch (const boost::system::system_error& e) {
    throw server_error(fmt::format("invalid TLS server key: {}", e.code().message()));
  }
  return context;
}

} // namespace

listener::listener(std::shared_ptr<io_runtime> io, std::optional<tls_identity> tls)
  : io_(std::move(io)),
    tls_(std::move(tls)),
    acceptor_(io_->context),
    retry_timer_(io_->context) {
  if (tls_)
    ssl_ = make_ssl_context(*tls_);
}

void listener::open(const std::string& host, std::uint16_t port) {
  auto endpoint = resolve(io_->context, host, port);
  const auto where = describe(host, port);
  boost::system::error_code ec;
  acceptor_.open(endpoint.protocol(), ec);
  if (!ec)
    acceptor_.set_option(asio::socket_base::reuse_address(true), ec);
  if (!ec)
    acceptor_.bind(endpoint, ec);
  if (ec == asio::error::address_in_use)
    throw server_error(fmt::format("address {} already in use", where));
  if (!ec)
    acceptor_.listen(asio::socket_base::max_listen_connections, ec);
  if (ec)
    throw server_error(fmt::format("cannot listen on {}: {}", where, ec.message()));
  auto bound = acceptor_.local_endpoint(ec);
  if (ec)
    throw server_error(fmt::format("cannot listen on {}: {}", where, ec.message()));
  port_ = bound.port();
  address_ = describe(bound.address().to_string(), port_);
  accept();
}

void listener::accept() {
  std::lock_guard guard{acceptor_mutex_};
  if (closed_)
    return;
  acceptor_.async_accept(asio::make_strand(io_->context),
                         [self = shared_from_this()](const boost::system::error_code& ec,
                                                     tcp::socket socket) {
                           self->on_accept(ec, std::move(socket));
                         });
}

void listener::on_accept(const boost::system::error_code& ec, tcp::socket socket) {
  if (closed_ || ec == asio::error::operation_aborted)
    return;
  if (ec) {
    // Out of descriptors or a connection aborted before accept: try again shortly.
    std::lock_guard guard{acceptor_mutex_};
    retry_timer_.expires_after(std::chrono::milliseconds{50});
    retry_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& wait) {
      if (!wait)
        self->accept();
    });
    return;
  }
  // Replies go out as soon as they are written, not after the client's delayed ACK.
  boost::system::error_code ignored;
  socket.set_option(tcp::no_delay(true), ignored);
  if (!refused_over_limit(socket))
    start_session(shared_from_this(), std::move(socket));
  accept();
}

bool listener::refused_over_limit(tcp::socket& socket) {
  const auto limit = io_->options.max_connections;
  {
    std::lock_guard guard{mutex_};
    if (sessions_.size() < limit)
      return false;
  }
  // Plain text even on a TLS listener: the handshake is what an over-limit client must not
  // get to cost. The socket's send buffer is empty, so this write does not block.
  static constexpr std::string_view busy =
    "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
  boost::system::error_code ignored;
  asio::write(socket, asio::buffer(busy), ignored);
  socket.close(ignored);
  std::uint64_t held_back = 0;
  if (refusal_log_.allow(held_back))
    spdlog::warn("http listener {}: {} connections open, a new one was refused with 503{}",
                 address_, limit, core::held_back_note(held_back));
  return true;
}

void listener::close() {
  if (closed_.exchange(true))
    return;
  {
    std::lock_guard guard{acceptor_mutex_};
    boost::system::error_code ec;
    acceptor_.close(ec);
    retry_timer_.cancel();
  }
  std::vector<std::shared_ptr<session_base>> open;
  {
    std::lock_guard guard{mutex_};
    for (auto& [id, session] : sessions_)
      if (auto alive = session.lock())
        open.push_back(std::move(alive));
  }
  for (auto& session : open)
    session->close();
}

void listener::add(const std::string& path, std::shared_ptr<const route_entry> entry) {
  std::lock_guard guard{mutex_};
  if (!routes_.emplace(path, std::move(entry)).second)
    throw server_error(fmt::format("path {} is already served on port {}", path, port_));
}

bool listener::remove(const std::string& path) {
  std::lock_guard guard{mutex_};
  routes_.erase(path);
  return routes_.empty();
}

bool listener::closing() const {
  std::lock_guard guard{mutex_};
  return routes_.empty();
}

std::shared_ptr<const route_entry> listener::find(std::string_view path) const {
  std::lock_guard guard{mutex_};
  if (auto i = routes_.find(path); i != routes_.end())
    return i->second;
  // A prefix route `P/*` serves every path under `P/`; the longest prefix wins.
  std::shared_ptr<const route_entry> best;
  std::size_t best_length = 0;
  for (const auto& [pattern, entry] : routes_) {
    if (!pattern.ends_with("/*"))
      continue;
    auto prefix = std::string_view{pattern}.substr(0, pattern.size() - 1);
    if (path.starts_with(prefix) && prefix.size() > best_length) {
      best = entry;
      best_length = prefix.size();
    }
  }
  return best;
}

std::uint64_t listener::track(std::weak_ptr<session_base> session) {
  std::lock_guard guard{mutex_};
  auto id = next_session_++;
  sessions_.emplace(id, std::move(session));
  return id;
}

void listener::forget(std::uint64_t id) {
  std::lock_guard guard{mutex_};
  sessions_.erase(id);
}

} // namespace ganglion::http::detail
