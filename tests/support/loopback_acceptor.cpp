#include "loopback_acceptor.hpp"

namespace ganglion::test {

namespace asio = boost::asio;
namespace bhttp = boost::beast::http;
using tcp = asio::ip::tcp;

loopback_acceptor::loopback_acceptor(std::function<void(tcp::socket&)> serve_one)
  : serve_one_(std::move(serve_one)) {
  tcp::endpoint endpoint{asio::ip::make_address("127.0.0.1"), 0};
  acceptor_.open(endpoint.protocol());
  acceptor_.bind(endpoint);
  acceptor_.listen();
  thread_ = std::thread([this] {
    for (;;) {
      boost::system::error_code ec;
      tcp::socket socket{context_};
      acceptor_.accept(socket, ec);
      if (ec || stopping_)
        return;
      serve_one_(socket);
    }
  });
}

loopback_acceptor::~loopback_acceptor() {
  stopping_ = true;
  boost::system::error_code ignored;
  asio::io_context context;
  tcp::socket wake{context};
  wake.connect(acceptor_.local_endpoint(), ignored);
  thread_.join();
}

std::uint16_t loopback_acceptor::port() const { return acceptor_.local_endpoint().port(); }

cgi_request cgi_request_of(const bhttp::request<bhttp::string_body>& request) {
  cgi_request cgi;
  cgi.method = std::string{request.method_string()};
  auto target = std::string{request.target()};
  auto question = target.find('?');
  cgi.path_info = target.substr(0, question);
  cgi.query = question == std::string::npos ? "" : target.substr(question + 1);
  cgi.content_type = std::string{request[bhttp::field::content_type]};
  cgi.content_encoding = std::string{request[bhttp::field::content_encoding]};
  cgi.git_protocol = std::string{request["Git-Protocol"]};
  cgi.body = request.body();
  return cgi;
}

} // namespace ganglion::test
