#pragma once

// Real servers for the git source's tests on 127.0.0.1: anonymous git smart HTTP for the
// repositories under a folder (git-http-backend), and an HTTPS front (a test CA's certificate
// for localhost) that hands each request to a plain HTTP server behind it. One request per
// connection, each server on its own thread.

#include <atomic>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

#include "files.hpp"
#include "git_http_backend.hpp"
#include "kube/test_ca.hpp"

namespace ganglion::kubernetes::testing {

namespace asio = boost::asio;
namespace bhttp = boost::beast::http;
using tcp = asio::ip::tcp;

/// Accepts on 127.0.0.1 and runs `serve_one` for each connection until destroyed.
class loopback_acceptor {
public:
  explicit loopback_acceptor(std::function<void(tcp::socket&)> serve_one)
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
  ~loopback_acceptor() {
    stopping_ = true;
    boost::system::error_code ignored;
    asio::io_context context;
    tcp::socket wake{context};
    wake.connect(acceptor_.local_endpoint(), ignored);
    thread_.join();
  }
  loopback_acceptor(const loopback_acceptor&) = delete;
  loopback_acceptor& operator=(const loopback_acceptor&) = delete;

  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }

private:
  std::function<void(tcp::socket&)> serve_one_;
  asio::io_context context_;
  tcp::acceptor acceptor_{context_};
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

/// git's smart HTTP, no authentication, for the repositories under `root`.
class git_http_server {
public:
  explicit git_http_server(std::string root) : root_(std::move(root)) {}

  /// `http://127.0.0.1:<port>/<name>`: the repository in folder `<name>` of the root.
  std::string repo_url(const std::string& name) const {
    return "http://127.0.0.1:" + std::to_string(acceptor_.port()) + "/" + name;
  }
  std::uint16_t port() const { return acceptor_.port(); }

private:
  void serve(tcp::socket& socket) {
    boost::system::error_code ec;
    boost::beast::flat_buffer buffer;
    bhttp::request_parser<bhttp::string_body> parser;
    parser.body_limit(64u << 20);
    bhttp::read(socket, buffer, parser, ec);
    if (ec)
      return;
    const auto& request = parser.get();
    test::cgi_request cgi;
    cgi.method = std::string{request.method_string()};
    auto target = std::string{request.target()};
    auto question = target.find('?');
    cgi.path_info = target.substr(0, question);
    cgi.query = question == std::string::npos ? "" : target.substr(question + 1);
    cgi.content_type = std::string{request[bhttp::field::content_type]};
    cgi.content_encoding = std::string{request[bhttp::field::content_encoding]};
    cgi.git_protocol = std::string{request["Git-Protocol"]};
    cgi.body = request.body();
    bhttp::response<bhttp::string_body> response{bhttp::status::internal_server_error, 11};
    try {
      auto out = test::run_git_http_backend(root_, cgi);
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

  std::string root_;
  loopback_acceptor acceptor_{[this](tcp::socket& s) { serve(s); }};
};

/// HTTPS on 127.0.0.1 (certificate for localhost from its own CA) in front of the plain HTTP
/// server at `backend_port`: each request read, sent there, its answer returned.
class tls_front {
public:
  explicit tls_front(std::uint16_t backend_port) : backend_port_(backend_port) {
    auto keys = ca_.issue_server();
    tls_.use_certificate_chain(asio::buffer(keys.certificate_pem));
    tls_.use_private_key(asio::buffer(keys.key_pem), asio::ssl::context::pem);
    ca_file_ = test::temp_dir() + "/ca.pem";
    std::ofstream{ca_file_} << ca_.certificate_pem();
  }

  /// `https://localhost:<port>`.
  std::string base_url() const { return "https://localhost:" + std::to_string(acceptor_.port()); }
  /// A PEM file holding the CA that signed the certificate.
  const std::string& ca_file() const { return ca_file_; }

private:
  void serve(tcp::socket& socket) {
    boost::system::error_code ec;
    asio::ssl::stream<tcp::socket&> client{socket, tls_};
    client.handshake(asio::ssl::stream_base::server, ec);
    if (ec)
      return;
    boost::beast::flat_buffer buffer;
    bhttp::request_parser<bhttp::string_body> parser;
    parser.body_limit(64u << 20);
    bhttp::read(client, buffer, parser, ec);
    if (ec)
      return;
    auto request = parser.release();
    request.keep_alive(false);
    request.prepare_payload();
    asio::io_context context;
    tcp::socket backend{context};
    backend.connect({asio::ip::make_address("127.0.0.1"), backend_port_}, ec);
    if (ec)
      return;
    bhttp::write(backend, request, ec);
    boost::beast::flat_buffer back_buffer;
    bhttp::response_parser<bhttp::string_body> answer;
    answer.body_limit(64u << 20);
    bhttp::read(backend, back_buffer, answer, ec);
    auto response = answer.release();
    response.keep_alive(false);
    response.prepare_payload();
    bhttp::write(client, response, ec);
    client.shutdown(ec);
  }

  std::uint16_t backend_port_;
  test::kube::test_ca ca_;
  asio::ssl::context tls_{asio::ssl::context::tls_server};
  std::string ca_file_;
  loopback_acceptor acceptor_{[this](tcp::socket& s) { serve(s); }};
};

} // namespace ganglion::kubernetes::testing
