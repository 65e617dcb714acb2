#include "loopback_servers.hpp"

#include <fstream>
#include <map>
#include <mutex>
#include <thread>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "files.hpp"
#include "kube/test_ca.hpp"
#include "loopback_acceptor.hpp"

namespace ganglion::test {

namespace {

namespace asio = boost::asio;
namespace bhttp = boost::beast::http;
using tcp = asio::ip::tcp;

constexpr std::uint64_t max_body = 64u << 20;

} // namespace

struct file_server::impl {
  void serve(tcp::socket& socket) {
    boost::system::error_code ec;
    boost::beast::flat_buffer buffer;
    bhttp::request<bhttp::string_body> request;
    bhttp::read(socket, buffer, request, ec);
    if (ec)
      return;
    canned_response answer{404, "not found"};
    {
      std::lock_guard lock{mutex};
      if (auto it = routes.find(std::string{request.target()}); it != routes.end())
        answer = it->second;
    }
    // The delay a test asked for: how the url source meets a slow server.
    std::this_thread::sleep_for(answer.delay);
    bhttp::response<bhttp::string_body> response{static_cast<bhttp::status>(answer.status), 11};
    response.set(bhttp::field::content_type, "application/yaml");
    if (!answer.location.empty())
      response.set(bhttp::field::location, answer.location);
    response.body() = answer.body;
    response.keep_alive(false);
    response.prepare_payload();
    bhttp::write(socket, response, ec);
    socket.shutdown(tcp::socket::shutdown_both, ec);
  }

  std::mutex mutex;
  std::map<std::string, canned_response> routes;
  loopback_acceptor acceptor{[this](tcp::socket& s) { serve(s); }};
};

file_server::file_server() : impl_(std::make_unique<impl>()) {}
file_server::~file_server() = default;

void file_server::put(const std::string& path, canned_response response) {
  std::lock_guard lock{impl_->mutex};
  impl_->routes[path] = std::move(response);
}

std::string file_server::url(const std::string& path) const {
  return "http://127.0.0.1:" + std::to_string(impl_->acceptor.port()) + path;
}

struct git_http_server::impl {
  explicit impl(std::string repos) : root(std::move(repos)) {}

  void serve(tcp::socket& socket) {
    boost::system::error_code ec;
    boost::beast::flat_buffer buffer;
    bhttp::request_parser<bhttp::string_body> parser;
    parser.body_limit(max_body);
    bhttp::read(socket, buffer, parser, ec);
    if (ec)
      return;
    auto cgi = cgi_request_of(parser.get());
    bhttp::response<bhttp::string_body> response{bhttp::status::internal_server_error, 11};
    try {
      auto out = run_git_http_backend(root, cgi);
      response.result(static_cast<bhttp::status>(out.status));
      for (const auto& [name, value] : out.headers)
        response.set(name, value);
      response.body() = std::move(out.body);
    } catch (const std::exception& e) {
      response.body() = e.what();
    }
    response.keep_alive(false);
    response.prepare_payload();
    bhttp::write(socket, response, ec);
    socket.shutdown(tcp::socket::shutdown_both, ec);
  }

  std::string root;
  loopback_acceptor acceptor{[this](tcp::socket& s) { serve(s); }};
};

git_http_server::git_http_server(std::string root)
  : impl_(std::make_unique<impl>(std::move(root))) {}
git_http_server::~git_http_server() = default;

std::string git_http_server::repo_url(const std::string& name) const {
  return "http://127.0.0.1:" + std::to_string(port()) + "/" + name;
}

std::uint16_t git_http_server::port() const { return impl_->acceptor.port(); }

struct tls_front::impl {
  explicit impl(std::uint16_t backend) : backend_port(backend) {
    auto keys = ca.issue_server();
    tls.use_certificate_chain(asio::buffer(keys.certificate_pem));
    tls.use_private_key(asio::buffer(keys.key_pem), asio::ssl::context::pem);
    ca_file = temp_dir() + "/ca.pem";
    std::ofstream{ca_file} << ca.certificate_pem();
  }

  void serve(tcp::socket& socket) {
    boost::system::error_code ec;
    asio::ssl::stream<tcp::socket&> client{socket, tls};
    client.handshake(asio::ssl::stream_base::server, ec);
    if (ec)
      return;
    boost::beast::flat_buffer buffer;
    bhttp::request_parser<bhttp::string_body> parser;
    parser.body_limit(max_body);
    bhttp::read(client, buffer, parser, ec);
    if (ec)
      return;
    auto request = parser.release();
    request.keep_alive(false);
    request.prepare_payload();
    asio::io_context context;
    tcp::socket backend{context};
    backend.connect({asio::ip::make_address("127.0.0.1"), backend_port}, ec);
    if (ec)
      return;
    bhttp::write(backend, request, ec);
    boost::beast::flat_buffer back_buffer;
    bhttp::response_parser<bhttp::string_body> answer;
    answer.body_limit(max_body);
    bhttp::read(backend, back_buffer, answer, ec);
    auto response = answer.release();
    response.keep_alive(false);
    response.prepare_payload();
    bhttp::write(client, response, ec);
    client.shutdown(ec);
  }

  std::uint16_t backend_port;
  kube::test_ca ca;
  asio::ssl::context tls{asio::ssl::context::tls_server};
  std::string ca_file;
  loopback_acceptor acceptor{[this](tcp::socket& s) { serve(s); }};
};

tls_front::tls_front(std::uint16_t backend_port)
  : impl_(std::make_unique<impl>(backend_port)) {}
tls_front::~tls_front() = default;

std::string tls_front::base_url() const {
  return "https://localhost:" + std::to_string(impl_->acceptor.port());
}

const std::string& tls_front::ca_file() const { return impl_->ca_file; }

} // namespace ganglion::test
