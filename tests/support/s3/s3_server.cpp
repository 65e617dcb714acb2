#include "s3/s3_server.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "s3/listen.hpp"
#include "s3/sigv4.hpp"

namespace ganglion::test::s3 {

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;
using request = bhttp::request<bhttp::string_body>;
using response = bhttp::response<bhttp::string_body>;

/// How far a request's `x-amz-date` may be from the server's clock, as in S3.
constexpr std::chrono::minutes max_skew{15};

std::string xml_escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

/// An S3 error: status, code and message.
struct s3_error {
  unsigned status;
  std::string code;
  std::string message;
};

} // namespace

struct s3_server::impl {
  explicit impl(s3_server_options o) : options(std::move(o)) {}

  s3_server_options options;
  asio::io_context context;
  listen_hub hub{context};
  tcp::acceptor acceptor{context};
  std::thread thread;
  mutable std::mutex mutex;
  std::map<std::string, std::map<std::string, std::string>> buckets;
  std::vector<s3_request> log;

  /// Why the request's signature does not let it in; nullopt when it does.
  std::optional<s3_error> check_signature(const request& req, const std::string& path,
                                          const std::string& query) const {
    auto header = std::string(req[bhttp::field::authorization]);
    if (header.empty())
      return s3_error{403, "AccessDenied", "Access Denied."};
    auto auth = parse_authorization(header);
    if (!auth || auth->service != "s3")
      return s3_error{400, "AuthorizationHeaderMalformed",
                      "The authorization header is malformed."};
    if (auth->access_key != options.access_key)
      return s3_error{403, "InvalidAccessKeyId",
                      "The AWS Access Key Id you provided does not "
                      "exist in our records."};
    if (auth->region != options.region)
      return s3_error{400, "AuthorizationHeaderMalformed",
                      "The authorization header is malformed; the region '" + auth->region
                        + "' is wrong; expecting '" + options.region + "'"};
    sigv4_request signed_request;
    signed_request.method = std::string(req.method_string());
    signed_request.path = path;
    signed_request.query = query;
    for (const auto& field : req) {
      auto name = std::string(field.name_string());
      for (auto& c : name)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      signed_request.headers[name] = std::string(field.value());
    }
    signed_request.payload_hash = signed_request.headers["x-amz-content-sha256"];
    signed_request.amz_date = signed_request.headers["x-amz-date"];
    if (signed_request.payload_hash.empty())
      return s3_error{400, "InvalidRequest",
                      "Missing required header for this request: x-amz-content-sha256"};
    for (const auto& required : {"host", "x-amz-content-sha256", "x-amz-date"})
      if (std::find(auth->signed_headers.begin(), auth->signed_headers.end(), required)
          == auth->signed_headers.end())
        return s3_error{403, "AccessDenied",
                        "There were headers present in the request which were not signed"};
    auto when = parse_amz_date(signed_request.amz_date);
    if (!when || signed_request.amz_date.substr(0, 8) != auth->date)
      return s3_error{403, "AccessDenied",
                      "AWS authentication requires a valid Date or "
                      "x-amz-date header"};
    auto skew = std::chrono::system_clock::now() - *when;
    if (skew > max_skew || skew < -max_skew)
      return s3_error{403, "RequestTimeTooSkewed",
                      "The difference between the request time "
                      "and the current time is too large."};
    auto expected = expected_signature(signed_request, *auth, options.secret_key);
    if (!constant_time_equal(expected, auth->signature))
      return s3_error{403, "SignatureDoesNotMatch",
                      "The request signature we calculated does not match the signature you "
                      "provided. Check your key and signing method."};
    return std::nullopt;
  }

  /// The filter of a signed listen request on an existing bucket; nullopt for any other
  /// request (answer() then answers it, or its error).
  std::optional<listen_filter> listen_request(const request& req) {
    auto target = std::string(req.target());
    auto mark = target.find('?');
    auto path = target.substr(0, mark);
    auto query = mark == std::string::npos ? std::string{} : target.substr(mark + 1);
    auto bucket = percent_decode(path.substr(1));
    if (req.method() != bhttp::verb::get || bucket.empty() || bucket.find('/') != std::string::npos
        || !is_listen_query(query) || check_signature(req, path, query))
      return std::nullopt;
    std::lock_guard lock{mutex};
    if (!buckets.count(bucket))
      return std::nullopt;
    log.push_back({"GET", target, ""});
    return parse_listen_query(bucket, query);
  }

  response answer(const request& req) {
    auto target = std::string(req.target());
    auto mark = target.find('?');
    auto path = target.substr(0, mark);
    auto query = mark == std::string::npos ? std::string{} : target.substr(mark + 1);
    auto slash = path.find('/', 1);
    auto bucket = percent_decode(path.substr(1, slash == std::string::npos ? slash : slash - 1));
    auto key = slash == std::string::npos ? std::string{} : percent_decode(path.substr(slash + 1));
    std::optional<s3_error> error;
    std::string body;
    bool head = req.method() == bhttp::verb::head;
    if (req.method() != bhttp::verb::get && !head) {
      error = s3_error{405, "MethodNotAllowed",
                       "The specified method is not allowed against this resource."};
    } else if (!(error = check_signature(req, path, query))) {
      std::lock_guard lock{mutex};
      auto found = buckets.find(bucket);
      if (found == buckets.end())
        error = s3_error{404, "NoSuchBucket", "The specified bucket does not exist"};
      else if (key.empty() || !query.empty())
        error = s3_error{501, "NotImplemented",
                         "A header or query you provided implies "
                         "functionality that is not implemented."};
      else if (auto object = found->second.find(key); object == found->second.end())
        error = s3_error{404, "NoSuchKey", "The specified key does not exist."};
      else
        body = object->second;
    }
    response res;
    res.version(req.version());
    res.keep_alive(req.keep_alive());
    res.set(bhttp::field::server, "ganglion-test-s3");
    if (error) {
      res.result(error->status);
      res.set(bhttp::field::content_type, "application/xml");
      res.body() = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>" + error->code
                   + "</Code><Message>" + xml_escape(error->message) + "</Message><BucketName>"
                   + xml_escape(bucket) + "</BucketName><Key>" + xml_escape(key)
                   + "</Key><Resource>" + xml_escape(path) + "</Resource></Error>";
    } else {
      res.result(bhttp::status::ok);
      res.set(bhttp::field::content_type, "application/octet-stream");
      res.body() = std::move(body);
    }
    res.prepare_payload();
    if (head)
      res.body().clear();
    std::lock_guard lock{mutex};
    log.push_back({std::string(req.method_string()), target, error ? error->code : ""});
    return res;
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
    connection(impl* owner, tcp::socket s) : server(owner), stream(std::move(s)) {}

    void read() {
      message = {};
      bhttp::async_read(stream, buffer, message,
                        [self = shared_from_this()](const error_code& ec, std::size_t) {
                          if (!ec)
                            self->respond();
                        });
    }

    void respond() {
      if (auto filter = server->listen_request(message)) {
        server->hub.adopt(std::move(stream), message.version(), std::move(*filter));
        return;
      }
      auto res = std::make_shared<response>(server->answer(message));
      bhttp::async_write(stream, *res,
                         [self = shared_from_this(), res](const error_code& ec, std::size_t) {
                           if (ec || !res->keep_alive()) {
                             error_code ignored;
                             self->stream.socket().shutdown(tcp::socket::shutdown_both, ignored);
                             return;
                           }
                           self->read();
                         });
    }

    impl* server;
    beast::tcp_stream stream;
    beast::flat_buffer buffer;
    request message;
  };
};

s3_server::s3_server(s3_server_options options)
  : impl_(std::make_unique<impl>(std::move(options))) {
  tcp::endpoint endpoint{asio::ip::make_address("127.0.0.1"), 0};
  impl_->acceptor.open(endpoint.protocol());
  impl_->acceptor.set_option(asio::socket_base::reuse_address(true));
  impl_->acceptor.bind(endpoint);
  impl_->acceptor.listen();
  impl_->accept();
  impl_->thread = std::thread([server = impl_.get()] { server->context.run(); });
}

s3_server::~s3_server() {
  impl_->context.stop();
  impl_->thread.join();
}

void s3_server::put_bucket(const std::string& name) {
  std::lock_guard lock{impl_->mutex};
  impl_->buckets[name];
}

void s3_server::put_object(const std::string& bucket, const std::string& key, std::string body) {
  std::lock_guard lock{impl_->mutex};
  impl_->buckets[bucket][key] = std::move(body);
}

void s3_server::notify(const std::string& bucket, const std::string& key,
                       const std::string& event, std::int64_t size) {
  impl_->hub.publish(bucket, key, event, notification_line(bucket, key, event, size));
}

void s3_server::notify_line(const std::string& bucket, const std::string& line) {
  impl_->hub.publish_raw(bucket, line);
}

std::size_t s3_server::listeners() const {
  return impl_->hub.count();
}

void s3_server::drop_listeners() {
  impl_->hub.drop_all();
}

std::uint16_t s3_server::port() const {
  return impl_->acceptor.local_endpoint().port();
}

std::string s3_server::endpoint() const {
  return "127.0.0.1:" + std::to_string(port());
}

const s3_server_options& s3_server::options() const noexcept {
  return impl_->options;
}

std::vector<s3_request> s3_server::requests() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->log;
}

} // namespace ganglion::test::s3
