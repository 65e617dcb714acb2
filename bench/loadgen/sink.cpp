#include "sink.hpp"

#include <charconv>
#include <optional>
#include <stdexcept>

#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <fmt/format.h>

#include "clock.hpp"
#include "lean_parser.hpp"
#include "seq_scan.hpp"

namespace ganglion::loadgen {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

namespace {

constexpr std::string_view ok_keep_alive = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n";
constexpr std::string_view ok_close =
  "HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
constexpr std::uint64_t body_limit = 64 * 1024 * 1024;

void bump(std::atomic<std::uint64_t>& c) noexcept {
  c.store(c.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

} // namespace

/// One client connection, served with keep-alive; buffers are reused across requests.
class sink::session : public std::enable_shared_from_this<session> {
public:
  session(sink& owner, tcp::socket socket) : owner_(owner), socket_(std::move(socket)) {}

  void read() {
    body_.clear();
    parser_.emplace(&body_);
    parser_->body_limit(body_limit);
    boost::beast::http::async_read(socket_, buffer_, *parser_,
                                   [self = shared_from_this()](const error_code& ec, std::size_t) {
                                     if (!ec)
                                       self->on_request();
                                   });
  }

private:
  void on_request() {
    owner_.on_body(body_, now_ns());
    bool keep_alive = parser_->keep_alive();
    auto reply = keep_alive ? ok_keep_alive : ok_close;
    asio::async_write(socket_, asio::buffer(reply.data(), reply.size()),
                      [self = shared_from_this(), keep_alive](const error_code& ec, std::size_t) {
                        if (ec || !keep_alive) {
                          error_code ignored;
                          self->socket_.shutdown(tcp::socket::shutdown_both, ignored);
                          return;
                        }
                        self->read();
                      });
  }

  sink& owner_;
  tcp::socket socket_;
  boost::beast::flat_buffer buffer_;
  std::string body_;
  std::optional<body_only_parser> parser_;
};

sink::sink(const std::string& host, std::uint16_t port, seq_table& table)
  : table_(table), acceptor_(io_) {
  error_code ec;
  auto address = asio::ip::make_address(host, ec);
  if (ec)
    throw std::runtime_error(fmt::format("sink: '{}' is not an IP address", host));
  tcp::endpoint endpoint{address, port};
  acceptor_.open(endpoint.protocol());
  acceptor_.set_option(asio::socket_base::reuse_address(true));
  acceptor_.bind(endpoint, ec);
  if (ec)
    throw std::runtime_error(
      fmt::format("sink: cannot listen on {}:{}: {}", host, port, ec.message()));
  acceptor_.listen(asio::socket_base::max_listen_connections);
  port_ = acceptor_.local_endpoint().port();
  accept();
  thread_ = std::thread([this] { io_.run(); });
}

sink::~sink() {
  stop();
}

void sink::stop() {
  if (!thread_.joinable())
    return;
  io_.stop();
  thread_.join();
}

void sink::accept() {
  acceptor_.async_accept([this](const error_code& ec, tcp::socket socket) {
    if (ec)
      return;
    error_code ignored;
    socket.set_option(tcp::no_delay(true), ignored);
    std::make_shared<session>(*this, std::move(socket))->read();
    accept();
  });
}

void sink::on_body(std::string_view body, std::int64_t now) noexcept {
  auto seq = find_seq(body);
  if (!seq) {
    bump(unmatched_);
    return;
  }
  auto a = table_.on_arrival(*seq, now);
  switch (a.kind) {
  case arrival_kind::first:
    latency_.record(a.latency_ns);
    bump(arrived_);
    break;
  case arrival_kind::duplicate:
    bump(duplicate_);
    break;
  case arrival_kind::warmup:
    bump(warmup_);
    break;
  case arrival_kind::unknown:
    bump(unmatched_);
    break;
  }
}

sink_counts sink::counts() const {
  sink_counts c;
  c.arrived = arrived_.load(std::memory_order_relaxed);
  c.duplicate = duplicate_.load(std::memory_order_relaxed);
  c.unmatched = unmatched_.load(std::memory_order_relaxed);
  c.warmup = warmup_.load(std::memory_order_relaxed);
  c.latency = latency_;
  return c;
}

std::pair<std::string, std::uint16_t> split_host_port(const std::string& address) {
  auto colon = address.rfind(':');
  if (colon == std::string::npos || colon == 0)
    throw std::runtime_error(fmt::format("'{}': expected HOST:PORT", address));
  auto host = address.substr(0, colon);
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  std::uint16_t port = 0;
  auto digits = std::string_view(address).substr(colon + 1);
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), port);
  if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size())
    throw std::runtime_error(fmt::format("'{}': the port must be a number from 0 to 65535", address));
  return {host, port};
}

} // namespace ganglion::loadgen
