// The raw HTTP baselines of `make bench`: a server that answers every request 200 "success".
//   beast: a minimal Boost.Beast HTTP/1.1 async server, N io threads on one io_context, one
//          strand per connection — the library and thread count of ganglion's webhook server.
//   pool:  ganglion's own ganglion::http::server_pool with one route answering at once, which
//          separates the cost of ganglion's HTTP layer from the cost of the engine behind it.

#include <csignal>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/strand.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "ganglion/http/server.hpp"

namespace {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace bhttp = beast::http;
using tcp = asio::ip::tcp;
using error_code = boost::system::error_code;

/// One keep-alive connection: read a request with its body, answer 200 "success", repeat.
class session : public std::enable_shared_from_this<session> {
public:
  explicit session(tcp::socket socket) : stream_(std::move(socket)) {}

  void start() { read(); }

private:
  void read() {
    request_ = {};
    bhttp::async_read(stream_, buffer_, request_,
                      [self = shared_from_this()](error_code ec, std::size_t) {
                        if (!ec)
                          self->answer();
                      });
  }

  void answer() {
    response_ = {bhttp::status::ok, request_.version()};
    response_.set(bhttp::field::content_type, "text/plain");
    response_.keep_alive(request_.keep_alive());
    response_.body() = "success";
    response_.prepare_payload();
    bhttp::async_write(stream_, response_, [self = shared_from_this()](error_code ec, std::size_t) {
      if (!ec && self->response_.keep_alive())
        self->read();
    });
  }

  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
  bhttp::request<bhttp::string_body> request_;
  bhttp::response<bhttp::string_body> response_;
};

/// Accepts connections on `endpoint`, each on its own strand.
class acceptor {
public:
  acceptor(asio::io_context& io, const tcp::endpoint& endpoint) : io_(io), acceptor_(io, endpoint) {}

  std::uint16_t port() const { return acceptor_.local_endpoint().port(); }

  void accept() {
    acceptor_.async_accept(asio::make_strand(io_), [this](error_code ec, tcp::socket socket) {
      if (!ec) {
        socket.set_option(tcp::no_delay(true));
        std::make_shared<session>(std::move(socket))->start();
      }
      if (acceptor_.is_open())
        accept();
    });
  }

private:
  asio::io_context& io_;
  tcp::acceptor acceptor_;
};

/// Blocks until SIGINT or SIGTERM.
void wait_for_signal() {
  asio::io_context signals_io;
  asio::signal_set signals{signals_io, SIGINT, SIGTERM};
  signals.async_wait([](error_code, int) {});
  signals_io.run();
}

int run_beast(const std::string& host, std::uint16_t port, std::size_t threads) {
  asio::io_context io{static_cast<int>(threads)};
  acceptor server{io, {asio::ip::make_address(host), port}};
  server.accept();
  std::printf("beast baseline listening on %s:%u with %zu threads\n", host.c_str(), server.port(),
              threads);
  std::fflush(stdout);
  std::vector<std::jthread> workers;
  for (std::size_t i = 0; i < threads; ++i)
    workers.emplace_back([&io] { io.run(); });
  wait_for_signal();
  io.stop();
  return 0;
}

int run_pool(const std::string& host, std::uint16_t port, std::size_t threads,
             const std::string& path) {
  ganglion::http::server_pool pool{{.threads = threads}};
  auto route = pool.add_route(host, port, path,
                              [](ganglion::http::request&&, ganglion::http::responder reply) {
                                reply(ganglion::http::text_response(200, "success"));
                              });
  std::printf("server_pool baseline listening on %s:%u%s with %zu threads\n", host.c_str(),
              route.port(), path.c_str(), threads);
  std::fflush(stdout);
  wait_for_signal();
  return 0;
}

} // namespace

int main(int argc, char** argv) {
  CLI::App cli{"ganglion-http-baseline: an HTTP server answering 200 \"success\" to every request"};
  std::string host = "127.0.0.1";
  std::uint16_t port = 0;
  std::size_t threads = 2;
  std::string mode = "beast";
  std::string path = "/ingest";
  cli.add_option("--host", host, "Address to listen on")->capture_default_str();
  cli.add_option("--port", port, "Port to listen on (0: any free port)")->required();
  cli.add_option("--threads", threads, "io threads (ganglion's webhook server runs 2)")
    ->capture_default_str()
    ->check(CLI::Range(1, 64));
  cli.add_option("--mode", mode, "beast: raw Boost.Beast; pool: ganglion::http::server_pool")
    ->capture_default_str()
    ->check(CLI::IsMember({"beast", "pool"}));
  cli.add_option("--path", path, "The one route of pool mode (beast answers every path)")
    ->capture_default_str();
  CLI11_PARSE(cli, argc, argv);
  try {
    return mode == "beast" ? run_beast(host, port, threads) : run_pool(host, port, threads, path);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ganglion-http-baseline: %s\n", e.what());
    return 1;
  }
}
