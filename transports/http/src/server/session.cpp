#include "server/server_detail.hpp"

#include <array>
#include <type_traits>

#include <boost/asio/dispatch.hpp>
#include <boost/asio/post.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>

#include "server/request_reading.hpp"

namespace ganglion::http::detail {

namespace {

namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

constexpr std::chrono::seconds linger_time{2};

bool is_disconnect(const error_code& ec) {
  return ec == bhttp::error::end_of_stream || ec == asio::error::operation_aborted ||
         ec == beast::error::timeout || ec == asio::error::connection_reset ||
         ec == asio::error::eof || ec == asio::ssl::error::stream_truncated ||
         ec == bhttp::error::partial_message;
}

/// One connection: reads a request, hands it to its route, writes the reply, repeats while
/// keep-alive holds. All work runs on the connection's strand.
template <class Stream>
class session final : public session_base, public std::enable_shared_from_this<session<Stream>> {
public:
  static constexpr bool is_tls = !std::is_same_v<Stream, beast::tcp_stream>;

  template <class... Args>
  session(std::shared_ptr<listener> owner, Args&&... stream_args)
    : owner_(std::move(owner)),
      io_(owner_->io_ptr()),
      stream_(std::forward<Args>(stream_args)...) {}

  ~session() override {
    if (tracked_)
      owner_->forget(id_);
  }

  void start() {
    id_ = owner_->track(this->weak_from_this());
    tracked_ = true;
    asio::dispatch(stream_.get_executor(), [self = this->shared_from_this()] { self->begin(); });
  }

  void close() override {
    asio::post(stream_.get_executor(), [self = this->shared_from_this()] { self->shut(); });
  }

private:
  auto& lowest() { return beast::get_lowest_layer(stream_); }
  const server_options& options() const { return io_->options; }

  void begin() {
    if (owner_->closed())
      return shut();
    if constexpr (is_tls) {
      lowest().expires_after(options().read_timeout);
      stream_.async_handshake(asio::ssl::stream_base::server,
                              [self = this->shared_from_this()](const error_code& ec) {
                                if (ec)
                                  return self->shut();
                                self->read_request();
                              });
    } else {
      read_request();
    }
  }

  void read_request() {
    parser_.emplace();
    parser_->header_limit(options().header_limit);
    parser_->body_limit(boost::none);
    entry_.reset();
    lowest().expires_after(options().read_timeout);
    bhttp::async_read_header(stream_, buffer_, *parser_,
                             [self = this->shared_from_this()](const error_code& ec, std::size_t) {
                               self->on_header(ec);
                             });
  }

  void on_header(const error_code& ec) {
    if (ec)
      return on_read_error(ec);
    auto& message = parser_->get();
    version_ = message.version();
    keep_alive_ = message.keep_alive();
    std::string_view target = message.target();
    entry_ = owner_->find(target.substr(0, target.find('?')));
    auto limit = body_limit_for(entry_ ? std::optional<std::uint64_t>{entry_->options.body_limit}
                                       : std::nullopt);
    auto declared = parser_->content_length(); // a boost::optional
    if (declared_too_large(declared ? std::optional<std::uint64_t>{*declared} : std::nullopt,
                           limit))
      return reject_too_large();
    parser_->body_limit(limit);
    if (beast::iequals(message[bhttp::field::expect], "100-continue")) {
      auto interim = std::make_shared<bhttp::response<bhttp::empty_body>>(
        bhttp::status::continue_, message.version());
      bhttp::async_write(stream_, *interim,
                         [self = this->shared_from_this(), interim](const error_code& wec,
                                                                    std::size_t) {
                           if (wec)
                             return self->shut();
                           self->read_body();
                         });
      return;
    }
    read_body();
  }

  void read_body() {
    bhttp::async_read(stream_, buffer_, *parser_,
                      [self = this->shared_from_this()](const error_code& ec, std::size_t) {
                        if (ec == bhttp::error::body_limit)
                          return self->reject_too_large();
                        if (ec)
                          return self->on_read_error(ec);
                        self->serve();
                      });
  }

  void on_read_error(const error_code& ec) {
    if (is_disconnect(ec))
      return shut();
    keep_alive_ = false;
    if (ec == bhttp::error::header_limit)
      return write(text_response(431, "request header fields too large"));
    if (ec.category() == bhttp::make_error_code(bhttp::error::bad_target).category())
      return write(text_response(400, "bad request: " + ec.message()));
    shut();
  }

  void reject_too_large() {
    if (entry_ && entry_->options.on_too_large)
      entry_->options.on_too_large();
    keep_alive_ = false;
    write(text_response(413, "request body too large"));
  }

  void serve() {
    lowest().expires_never();
    auto& message = parser_->get();
    header_list headers;
    for (const auto& field : message)
      headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    error_code ec;
    auto remote = lowest().socket().remote_endpoint(ec);
    auto r = make_request(std::string(message.method_string()), std::string(message.target()),
                          std::move(headers), std::move(message.body()),
                          ec ? std::string{} : remote.address().to_string());

    if (!entry_) {
      if (r.path == "/health")
        return write(text_response(200, "OK"));
      if (owner_->closing()) {
        // Its routes went while this request was read (a source stopping): try again later.
        keep_alive_ = false;
        auto stopping = text_response(503, "the server is stopping");
        stopping.headers.emplace_back("Retry-After", "1");
        return write(std::move(stopping));
      }
      return write(text_response(404, "404 page not found"));
    }
    auto entry = std::move(entry_);
    responder reply{[self = this->shared_from_this()](response&& res) {
      if (self->io_->stopped)
        return;
      asio::post(self->stream_.get_executor(),
                 [self, res = std::move(res)]() mutable { self->write(std::move(res)); });
    }};
    try {
      entry->serve(std::move(r), reply);
    } catch (const std::exception& e) {
      reply(text_response(500, e.what()));
    } catch (...) {
      reply(text_response(500, "internal error"));
    }
  }

  void write(response res) {
    auto message = std::make_shared<bhttp::response<bhttp::string_body>>();
    message->version(version_);
    message->result(res.status >= 100 && res.status <= 599 ? static_cast<unsigned>(res.status)
                                                           : 500u);
    message->set(bhttp::field::content_type, res.content_type);
    for (auto& [name, value] : res.headers)
      message->insert(name, value);
    message->body() = std::move(res.body);
    message->keep_alive(keep_alive_ && !owner_->closed());
    message->prepare_payload();
    lowest().expires_after(options().write_timeout);
    bhttp::async_write(stream_, *message,
                       [self = this->shared_from_this(), message](const error_code& ec,
                                                                  std::size_t) {
                         if (ec)
                           return self->shut();
                         if (!message->keep_alive())
                           return self->finish();
                         self->read_request();
                       });
  }

  /// Closes after a last response: stops sending, then reads what the client still sends so
  /// that closing does not reset the connection before the client read the response.
  void finish() {
    lowest().expires_after(linger_time);
    if constexpr (is_tls) {
      stream_.async_shutdown([self = this->shared_from_this()](const error_code&) {
        self->shut();
      });
    } else {
      error_code ec;
      lowest().socket().shutdown(tcp::socket::shutdown_send, ec);
      drain();
    }
  }

  void drain() {
    lowest().async_read_some(asio::buffer(drain_),
                             [self = this->shared_from_this()](const error_code& ec, std::size_t) {
                               if (ec)
                                 return self->shut();
                               self->drain();
                             });
  }

  void shut() {
    error_code ec;
    lowest().socket().shutdown(tcp::socket::shutdown_both, ec);
    lowest().close();
  }

  std::shared_ptr<listener> owner_;
  std::shared_ptr<io_runtime> io_;
  Stream stream_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  std::shared_ptr<const route_entry> entry_;
  std::array<char, 4096> drain_{};
  std::uint64_t id_ = 0;
  bool tracked_ = false;
  bool keep_alive_ = true;
  unsigned version_ = 11;
};

} // namespace

void start_session(std::shared_ptr<listener> owner, tcp::socket socket) {
  if (auto* ssl = owner->ssl_context()) {
    using stream = beast::ssl_stream<beast::tcp_stream>;
    auto s = std::make_shared<session<stream>>(owner, std::move(socket), *ssl);
    s->start();
  } else {
    auto s = std::make_shared<session<beast::tcp_stream>>(owner, std::move(socket));
    s->start();
  }
}

} // namespace ganglion::http::detail
