#include "http_sink.hpp"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>
#include <strings.h>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace ganglion::test {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

std::uint16_t free_port() {
  asio::io_context context;
  tcp::acceptor acceptor{context, tcp::endpoint{asio::ip::make_address("127.0.0.1"), 0}};
  return acceptor.local_endpoint().port();
}

std::string recorded_request::header(std::string_view name) const {
  for (const auto& [key, value] : headers)
    if (key.size() == name.size() && ::strncasecmp(key.data(), name.data(), name.size()) == 0)
      return value;
  return {};
}

struct http_sink::impl {
  asio::io_context context;
  tcp::acceptor acceptor{context};
  std::thread thread;

  mutable std::mutex mutex;
  /// Held while a request is answered and recorded, and by requests(): a test that saw a
  /// handler's effect (a stand-in's state) then sees its request too.
  mutable std::mutex serving;
  mutable std::condition_variable arrived;
  std::vector<recorded_request> received;
  std::atomic<int> status{200};
  std::atomic<std::int64_t> delay_ms{0};
  sink_handler handler;
  /// What later responses carry when no handler answers (set_status, set_answer), under `mutex`.
  std::string body = "ok";
  std::string content_type = "text/plain";
  std::vector<std::pair<std::string, std::string>> extra_headers;

  /// The fixed answer, when no handler answers.
  sink_answer fixed_answer() {
    std::lock_guard guard{mutex};
    return sink_answer{status.load(), body, content_type, extra_headers};
  }

  void record(recorded_request r) {
    {
      std::lock_guard guard{mutex};
      received.push_back(std::move(r));
    }
    arrived.notify_all();
  }

  void accept() {
    acceptor.async_accept([this](const error_code& ec, tcp::socket socket) {
      if (ec)
        return;
      std::make_shared<connection>(this, std::move(socket))->read();
      accept();
    });
  }

  /// One client connection, served with keep-alive.
  struct connection : std::enable_shared_from_this<connection> {
    connection(impl* owner, tcp::socket s)
      : sink(owner), stream(std::move(s)), timer(sink->context) {}

    void read() {
      message = {};
      bhttp::async_read(stream, buffer, message,
                        [self = shared_from_this()](const error_code& ec, std::size_t) {
                          if (ec)
                            return;
                          self->on_request();
                        });
    }

    void on_request() {
      recorded_request r;
      r.method = std::string(message.method_string());
      r.target = std::string(message.target());
      r.body = message.body();
      for (const auto& field : message)
        r.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
      r.at = std::chrono::steady_clock::now();
      {
        std::lock_guard serve{sink->serving};
        answer = sink->handler ? sink->handler(r) : sink->fixed_answer();
        sink->record(std::move(r));
      }
      timer.expires_after(std::chrono::milliseconds{sink->delay_ms.load()});
      timer.async_wait([self = shared_from_this()](const error_code& ec) {
        if (ec)
          return;
        self->respond();
      });
    }

    void respond() {
      auto res = std::make_shared<bhttp::response<bhttp::string_body>>();
      res->version(message.version());
      res->result(static_cast<unsigned>(answer.status));
      res->set(bhttp::field::content_type, answer.content_type);
      for (const auto& [name, value] : answer.headers)
        res->set(name, value);
      res->body() = answer.body;
      res->keep_alive(message.keep_alive());
      res->prepare_payload();
      bhttp::async_write(stream, *res, [self = shared_from_this(), res](const error_code& ec,
                                                                        std::size_t) {
        if (ec || !res->keep_alive()) {
          error_code ignored;
          self->stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
          return;
        }
        self->read();
      });
    }

    impl* sink;
    beast::tcp_stream stream;
    asio::steady_timer timer;
    beast::flat_buffer buffer;
    bhttp::request<bhttp::string_body> message;
    sink_answer answer;
  };
};

http_sink::http_sink(int status) : impl_(std::make_unique<impl>()) {
  impl_->status = status;
  tcp::endpoint endpoint{asio::ip::make_address("127.0.0.1"), 0};
  impl_->acceptor.open(endpoint.protocol());
  impl_->acceptor.set_option(asio::socket_base::reuse_address(true));
  impl_->acceptor.bind(endpoint);
  impl_->acceptor.listen();
  impl_->accept();
  impl_->thread = std::thread([sink = impl_.get()] { sink->context.run(); });
}

http_sink::~http_sink() {
  impl_->context.stop();
  impl_->thread.join();
}

std::uint16_t http_sink::port() const {
  return impl_->acceptor.local_endpoint().port();
}

std::string http_sink::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(port()) + path;
}

std::vector<recorded_request> http_sink::requests() const {
  std::lock_guard serve{impl_->serving};
  std::lock_guard guard{impl_->mutex};
  return impl_->received;
}

bool http_sink::wait_for(std::size_t count, std::chrono::milliseconds timeout) const {
  std::unique_lock lock{impl_->mutex};
  return impl_->arrived.wait_for(lock, timeout, [&] { return impl_->received.size() >= count; });
}

void http_sink::set_status(int status) {
  impl_->status = status;
}

void http_sink::set_answer(std::string body, std::string content_type,
                           std::vector<std::pair<std::string, std::string>> headers) {
  std::lock_guard guard{impl_->mutex};
  impl_->body = std::move(body);
  impl_->content_type = std::move(content_type);
  impl_->extra_headers = std::move(headers);
}

void http_sink::set_delay(std::chrono::milliseconds delay) {
  impl_->delay_ms = delay.count();
}

void http_sink::set_handler(sink_handler handler) {
  impl_->handler = std::move(handler);
}

} // namespace ganglion::test
