#include "http_driver.hpp"

#include <optional>

#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/http/read.hpp>
#include <fmt/format.h>

#include "clock.hpp"
#include "lean_parser.hpp"

namespace ganglion::loadgen {

namespace asio = boost::asio;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

namespace {

constexpr auto reconnect_delay = std::chrono::milliseconds(50);

outcome classify(int status) noexcept {
  if (status >= 200 && status < 300)
    return outcome::ok;
  if (status == 503)
    return outcome::saturated;
  if (status >= 500)
    return outcome::server_error;
  if (status >= 400)
    return outcome::client_error;
  return outcome::other;
}

} // namespace

struct http_driver::connection {
  explicit connection(asio::io_context& io) : socket(io), retry(io) {}

  tcp::socket socket;
  asio::steady_timer retry;
  std::string request;
  boost::beast::flat_buffer reply_buffer;
  std::optional<status_only_parser> reply;
  ticket current;
  std::int64_t deadline_ns = 0; ///< 0 while no request is in flight
  bool timed_out = false;
};

http_driver::http_driver(asio::io_context& io, const http_request_spec& spec,
                         std::size_t connections)
  : io_(io), spec_(spec), watchdog_(io) {
  connections_.reserve(connections);
  for (std::size_t i = 0; i < connections; ++i) {
    connections_.push_back(std::make_unique<connection>(io));
    connections_.back()->request.reserve(spec.head.size() + 64 +
                                         spec.body->rendered_size(UINT64_MAX, INT64_MAX));
  }
}

http_driver::~http_driver() {
  stopped_ = true;
}

std::size_t http_driver::slots() const {
  return connections_.size();
}

driver_stats http_driver::stats() const {
  return stats_;
}

void http_driver::start(driver_listener& listener) {
  listener_ = &listener;
  for (std::size_t slot = 0; slot < connections_.size(); ++slot)
    connect(slot);
  watch();
}

void http_driver::stop() {
  stopped_ = true;
  watchdog_.cancel();
  for (auto& c : connections_) {
    error_code ignored;
    c->retry.cancel();
    c->socket.close(ignored);
  }
}

void http_driver::connect(std::size_t slot) {
  auto& c = *connections_[slot];
  c.socket.async_connect(spec_.endpoint, [this, slot](const error_code& ec) {
    if (stopped_)
      return;
    auto& c = *connections_[slot];
    if (ec) {
      ++stats_.connect_errors;
      listener_->on_connect_error();
      error_code ignored;
      c.socket.close(ignored);
      c.retry.expires_after(reconnect_delay);
      c.retry.async_wait([this, slot](const error_code& ec) {
        if (!ec && !stopped_)
          connect(slot);
      });
      return;
    }
    ++stats_.connects;
    error_code ignored;
    c.socket.set_option(tcp::no_delay(true), ignored);
    listener_->on_ready(slot);
  });
}

void http_driver::send_next(std::size_t slot, const ticket& t) {
  auto& c = *connections_[slot];
  c.current = t;
  c.timed_out = false;
  auto send_ns = now_ns();
  c.deadline_ns = send_ns + spec_.timeout.count();
  c.request.assign(spec_.head);
  fmt::format_int length(spec_.body->rendered_size(t.seq, send_ns));
  c.request.append(length.data(), length.size());
  c.request.append("\r\n\r\n");
  spec_.body->render(c.request, t.seq, send_ns);
  asio::async_write(c.socket, asio::buffer(c.request),
                    [this, slot](const error_code& ec, std::size_t) {
                      if (stopped_)
                        return;
                      if (ec)
                        return fail(slot);
                      read_reply(slot);
                    });
}

void http_driver::read_reply(std::size_t slot) {
  auto& c = *connections_[slot];
  c.reply.emplace();
  boost::beast::http::async_read(c.socket, c.reply_buffer, *c.reply,
                                 [this, slot](const error_code& ec, std::size_t) {
                                   if (stopped_)
                                     return;
                                   if (ec)
                                     return fail(slot);
                                   finish(slot);
                                 });
}

void http_driver::finish(std::size_t slot) {
  auto& c = *connections_[slot];
  auto done = now_ns();
  c.deadline_ns = 0;
  bool keep_alive = c.reply->keep_alive();
  listener_->on_done(slot, c.current, classify(c.reply->status()), done);
  if (stopped_)
    return;
  if (keep_alive)
    listener_->on_ready(slot);
  else
    reconnect(slot);
}

void http_driver::fail(std::size_t slot) {
  auto& c = *connections_[slot];
  auto done = now_ns();
  c.deadline_ns = 0;
  listener_->on_done(slot, c.current, c.timed_out ? outcome::timeout : outcome::error, done);
  if (!stopped_)
    reconnect(slot);
}

void http_driver::reconnect(std::size_t slot) {
  auto& c = *connections_[slot];
  error_code ignored;
  c.socket.close(ignored);
  c.reply_buffer.clear();
  connect(slot);
}

void http_driver::watch() {
  auto period = std::clamp<std::chrono::nanoseconds>(spec_.timeout / 10, std::chrono::milliseconds(1),
                                                     std::chrono::milliseconds(100));
  watchdog_.expires_after(period);
  watchdog_.async_wait([this](const error_code& ec) {
    if (ec || stopped_)
      return;
    auto now = now_ns();
    for (auto& c : connections_) {
      if (c->deadline_ns != 0 && now > c->deadline_ns && !c->timed_out) {
        c->timed_out = true;
        error_code ignored;
        c->socket.close(ignored);
      }
    }
    watch();
  });
}

} // namespace ganglion::loadgen
