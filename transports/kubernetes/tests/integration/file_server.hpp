#pragma once

// A real HTTP/1.1 server on 127.0.0.1 that answers GETs from a table of paths (404 for the
// rest), for the url source's tests. One connection at a time, on its own thread.

#include <atomic>
#include <chrono>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>

#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>

namespace ganglion::kubernetes::testing {

/// What the server answers at one path.
struct canned_response {
  unsigned status = 200;
  std::string body;
  /// `Location`, for a redirect.
  std::string location = {};
  /// How long the answer is held back.
  std::chrono::milliseconds delay{0};
};

/// Serves canned responses until destroyed.
class file_server {
public:
  file_server() {
    namespace asio = boost::asio;
    asio::ip::tcp::endpoint endpoint{asio::ip::make_address("127.0.0.1"), 0};
    acceptor_.open(endpoint.protocol());
    acceptor_.bind(endpoint);
    acceptor_.listen();
    thread_ = std::thread([this] { serve(); });
  }

  /// Wakes the accepting thread with a connection of its own and joins it.
  ~file_server() {
    stopping_ = true;
    boost::system::error_code ignored;
    boost::asio::io_context context;
    boost::asio::ip::tcp::socket wake{context};
    wake.connect(acceptor_.local_endpoint(), ignored);
    thread_.join();
  }

  file_server(const file_server&) = delete;
  file_server& operator=(const file_server&) = delete;

  /// Answers GET `path` with `response` from now on.
  void put(const std::string& path, canned_response response) {
    std::lock_guard lock{mutex_};
    routes_[path] = std::move(response);
  }

  /// `http://127.0.0.1:<port><path>`.
  std::string url(const std::string& path) const {
    return "http://127.0.0.1:" + std::to_string(acceptor_.local_endpoint().port()) + path;
  }

private:
  void serve() {
    namespace http = boost::beast::http;
    for (;;) {
      boost::system::error_code ec;
      boost::asio::ip::tcp::socket socket{context_};
      acceptor_.accept(socket, ec);
      if (ec || stopping_)
        return;
      boost::beast::flat_buffer buffer;
      http::request<http::string_body> request;
      http::read(socket, buffer, request, ec);
      if (ec)
        continue;
      canned_response answer{404, "not found"};
      {
        std::lock_guard lock{mutex_};
        if (auto it = routes_.find(std::string{request.target()}); it != routes_.end())
          answer = it->second;
      }
      std::this_thread::sleep_for(answer.delay);
      http::response<http::string_body> response{static_cast<http::status>(answer.status), 11};
      response.set(http::field::content_type, "application/yaml");
      if (!answer.location.empty())
        response.set(http::field::location, answer.location);
      response.body() = answer.body;
      response.keep_alive(false);
      response.prepare_payload();
      http::write(socket, response, ec);
      socket.shutdown(boost::asio::ip::tcp::socket::shutdown_both, ec);
    }
  }

  boost::asio::io_context context_;
  boost::asio::ip::tcp::acceptor acceptor_{context_};
  std::atomic<bool> stopping_{false};
  std::thread thread_;
  std::mutex mutex_;
  std::map<std::string, canned_response> routes_;
};

} // namespace ganglion::kubernetes::testing
