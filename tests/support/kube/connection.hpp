#pragma once

// One client connection of the test server: keep-alive requests, and watch streams written
// as chunked JSON lines (a watch response closes the connection after its last chunk). Runs on
// the server's io thread.

#include <cctype>
#include <deque>
#include <memory>
#include <string>
#include <type_traits>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <boost/beast/ssl.hpp>
#include <openssl/x509.h>

#include "errors.hpp"
#include "identity.hpp"
#include "server_impl.hpp"

namespace ganglion::test::kube {

namespace beast = boost::beast;
namespace bhttp = boost::beast::http;
using tls_stream = beast::ssl_stream<beast::tcp_stream>;

/// `value` as JSON text; invalid UTF-8 (from a URL or a YAML body) is replaced, not thrown.
inline std::string to_text(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

/// A connection over `Stream`: beast::tcp_stream or tls_stream.
template <class Stream>
class connection : public std::enable_shared_from_this<connection<Stream>> {
public:
  connection(api_server::impl& server, Stream stream)
    : server_(server), stream_(std::move(stream)), bookmark_timer_(server.context),
      timeout_timer_(server.context) {}

  ~connection() { stop_watch(); }

  /// Handshakes (TLS) and serves requests until the client closes.
  void start() {
    if constexpr (std::is_same_v<Stream, tls_stream>) {
      stream_.async_handshake(boost::asio::ssl::stream_base::server,
                              [self = this->shared_from_this()](const beast::error_code& ec) {
                                if (!ec) {
                                  self->read_client_certificate();
                                  self->read();
                                }
                              });
    } else {
      read();
    }
  }

private:
  void read_client_certificate() {
    if constexpr (std::is_same_v<Stream, tls_stream>) {
      SSL* ssl = stream_.native_handle();
      X509* cert = SSL_get0_peer_certificate(ssl);
      if (!cert || SSL_get_verify_result(ssl) != X509_V_OK)
        return;
      X509_NAME* subject = X509_get_subject_name(cert);
      char name[256] = {};
      X509_NAME_get_text_by_NID(subject, NID_commonName, name, sizeof name);
      certificate_user_ = name;
      for (int i = X509_NAME_get_index_by_NID(subject, NID_organizationName, -1); i >= 0;
           i = X509_NAME_get_index_by_NID(subject, NID_organizationName, i)) {
        ASN1_STRING* data = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(subject, i));
        certificate_groups_.emplace_back(reinterpret_cast<const char*>(ASN1_STRING_get0_data(data)),
                                         static_cast<std::size_t>(ASN1_STRING_length(data)));
      }
    }
  }

  void read() {
    parser_.emplace();
    parser_->body_limit(64 * 1024 * 1024);
    bhttp::async_read(stream_, buffer_, *parser_,
                      [self = this->shared_from_this()](const beast::error_code& ec, std::size_t) {
                        if (!ec)
                          self->on_request();
                      });
  }

  api_call call_of(const bhttp::request<bhttp::string_body>& request) const {
    api_call call;
    call.method = std::string(request.method_string());
    call.target = std::string(request.target());
    call.content_type = std::string(request[bhttp::field::content_type]);
    call.accept = std::string(request[bhttp::field::accept]);
    call.body = request.body();
    std::string authorization{request[bhttp::field::authorization]};
    std::string token = authorization.rfind("Bearer ", 0) == 0 ? authorization.substr(7) : "";
    auto token_user = server_.options.token_users.find(token);
    if (!token.empty() && token_user != server_.options.token_users.end()) {
      call.authenticated = true;
      call.user = authenticated(token_user->second);
    } else if (!token.empty() && server_.tokens.count(token)) {
      call.authenticated = true;
      call.user = authenticated({"token-user", {"system:masters"}});
    } else if (!certificate_user_.empty()) {
      call.authenticated = true;
      call.user = authenticated({certificate_user_, certificate_groups_});
    } else {
      call.authenticated = !server_.auth_required;
    }
    call.impersonation = impersonation_of(request);
    return call;
  }

  static impersonation_headers impersonation_of(const bhttp::request<bhttp::string_body>& request) {
    impersonation_headers headers;
    static const std::string extra = "impersonate-extra-";
    for (const auto& field : request) {
      std::string name{field.name_string()};
      for (auto& c : name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      std::string value{field.value()};
      if (name == "impersonate-user" && headers.user.empty())
        headers.user = value;
      else if (name == "impersonate-group")
        headers.groups.push_back(value);
      else if (name == "impersonate-uid" && headers.uid.empty())
        headers.uid = value;
      else if (name.rfind(extra, 0) == 0)
        headers.extras.emplace_back(name.substr(extra.size()), value);
    }
    return headers;
  }

  void on_request() {
    auto request = parser_->release();
    auto call = call_of(request);
    auto reply = server_.handler->handle(call);
    request_record record{call.method, call.target,        call.content_type,
                          call.body,   call.authenticated, reply.status};
    record.user = call.user.name;
    record.groups = call.user.groups;
    record.impersonated_by = call.impersonated_by;
    server_.record(std::move(record));
    keep_alive_ = request.keep_alive();
    if (reply.watch)
      open_watch(*reply.watch, request.version());
    else
      respond(std::move(reply), request.version());
  }

  void respond(api_reply reply, unsigned version) {
    auto response = std::make_shared<bhttp::response<bhttp::string_body>>();
    response->version(version);
    response->result(static_cast<unsigned>(reply.status));
    std::string type = reply.text ? "text/plain" : "application/json";
    response->set(bhttp::field::content_type, reply.content_type ? *reply.content_type : type);
    for (const auto& [name, value] : reply.headers)
      response->set(name, value);
    response->body() = reply.text ? *reply.text : to_text(reply.body);
    response->keep_alive(keep_alive_);
    response->prepare_payload();
    bhttp::async_write(stream_, *response,
                       [self = this->shared_from_this(), response](
                         const beast::error_code& ec, std::size_t) { self->after_response(ec); });
  }

  void after_response(const beast::error_code& ec) {
    if (ec)
      return;
    if (keep_alive_)
      read();
    else
      beast::get_lowest_layer(stream_).socket().shutdown(
        boost::asio::ip::tcp::socket::shutdown_send, ignored_);
  }

  void open_watch(const watch_request& request, unsigned version) {
    watch_type_ = request.type;
    watching_ = true;
    keep_alive_ = false;
    ending_ = false;
    pending_.clear();
    header_.emplace();
    header_->version(version);
    header_->result(bhttp::status::ok);
    header_->set(bhttp::field::content_type, "application/json");
    header_->keep_alive(keep_alive_);
    header_->chunked(true);
    serializer_.emplace(*header_);
    writing_ = true;
    bhttp::async_write_header(
      stream_, *serializer_,
      [self = this->shared_from_this()](const beast::error_code& ec, std::size_t) {
        self->writing_ = false;
        if (ec)
          return self->stop_watch();
        self->write_next();
      });
    std::weak_ptr<connection> weak = this->shared_from_this();
    auto executor = server_.context.get_executor();
    // Closable before it counts as open (wait_for_watches): a close_watches() right after
    // wait_for_watches() must reach it. The close runs on this executor, after this handler.
    closer_id_ = server_.add_closer([weak, executor] {
      boost::asio::post(executor, [weak] {
        if (auto self = weak.lock())
          self->finish();
      });
    });
    try {
      watch_id_ = server_.objects.watch(
        request.type, request.filter, request.from_version, [weak, executor](const json& event) {
          boost::asio::post(executor, [weak, line = to_text(event)] {
            if (auto self = weak.lock())
              self->push(line);
          });
        });
    } catch (const api_error& e) {
      push(to_text(json{{"type", "ERROR"}, {"object", e.status()}}));
      return finish();
    }
    if (request.timeout) {
      timeout_timer_.expires_after(*request.timeout);
      timeout_timer_.async_wait([weak](const beast::error_code& ec) {
        if (auto self = weak.lock(); self && !ec)
          self->finish();
      });
    }
    if (request.bookmarks)
      schedule_bookmark();
    notice_close();
  }

  /// Reads while a watch streams, to notice a client that goes away (a watch response ends
  /// the connection, so nothing else is read on it).
  void notice_close() {
    stream_.async_read_some(
      boost::asio::buffer(probe_),
      [self = this->shared_from_this()](const beast::error_code& ec, std::size_t) {
        if (!ec)
          return self->notice_close();
        self->stop_watch();
        beast::get_lowest_layer(self->stream_).socket().close(self->ignored_);
      });
  }

  void schedule_bookmark() {
    bookmark_timer_.expires_after(std::chrono::milliseconds(server_.bookmark_ms.load()));
    std::weak_ptr<connection> weak = this->shared_from_this();
    bookmark_timer_.async_wait([weak](const beast::error_code& ec) {
      auto self = weak.lock();
      if (!self || ec || !self->watching_)
        return;
      json bookmark = {
        {"type", "BOOKMARK"},
        {"object",
         {{"kind", self->watch_type_.kind},
          {"apiVersion", self->watch_type_.api_version()},
          {"metadata", {{"resourceVersion", self->server_.objects.resource_version()}}}}}};
      boost::asio::post(self->server_.context.get_executor(), [weak, line = to_text(bookmark)] {
        if (auto self = weak.lock())
          self->push(line);
      });
      self->schedule_bookmark();
    });
  }

  void push(std::string line) {
    if (!watching_)
      return;
    pending_.push_back(std::move(line) + "\n");
    if (!writing_)
      write_next();
  }

  void write_next() {
    if (writing_)
      return;
    if (!pending_.empty()) {
      current_ = std::move(pending_.front());
      pending_.pop_front();
      writing_ = true;
      boost::asio::async_write(
        stream_, bhttp::make_chunk(boost::asio::buffer(current_)),
        [self = this->shared_from_this()](const beast::error_code& ec, std::size_t) {
          self->writing_ = false;
          if (ec)
            return self->stop_watch();
          self->write_next();
        });
      return;
    }
    if (ending_ && watching_) {
      watching_ = false;
      writing_ = true;
      boost::asio::async_write(
        stream_, bhttp::make_chunk_last(),
        [self = this->shared_from_this()](const beast::error_code& ec, std::size_t) {
          self->writing_ = false;
          self->after_response(ec);
        });
    }
  }

  /// Ends the stream after the events already queued.
  void finish() {
    if (!watching_ || ending_)
      return;
    ending_ = true;
    unsubscribe();
    write_next();
  }

  void unsubscribe() {
    bookmark_timer_.cancel();
    timeout_timer_.cancel();
    if (watch_id_) {
      server_.objects.unwatch(watch_id_);
      watch_id_ = 0;
    }
    if (closer_id_) {
      server_.remove_closer(closer_id_);
      closer_id_ = 0;
    }
  }

  void stop_watch() {
    watching_ = false;
    unsubscribe();
  }

  api_server::impl& server_;
  Stream stream_;
  beast::flat_buffer buffer_;
  std::optional<bhttp::request_parser<bhttp::string_body>> parser_;
  std::string certificate_user_;
  std::vector<std::string> certificate_groups_;
  char probe_[512];
  bool keep_alive_ = true;
  beast::error_code ignored_;

  resource_type watch_type_;
  std::optional<bhttp::response<bhttp::empty_body>> header_;
  std::optional<bhttp::response_serializer<bhttp::empty_body>> serializer_;
  boost::asio::steady_timer bookmark_timer_;
  boost::asio::steady_timer timeout_timer_;
  std::deque<std::string> pending_;
  std::string current_;
  int watch_id_ = 0;
  int closer_id_ = 0;
  bool watching_ = false;
  bool writing_ = false;
  bool ending_ = false;
};

} // namespace ganglion::test::kube
