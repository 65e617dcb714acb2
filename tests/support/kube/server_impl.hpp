#pragma once

// The state behind an api_server, shared by its connections.

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

#include <boost/asio.hpp>
#include <boost/asio/ssl.hpp>

#include "api_handler.hpp"
#include "api_server.hpp"
#include "faults.hpp"
#include "rbac.hpp"
#include "store.hpp"
#include "test_ca.hpp"

namespace ganglion::test::kube {

struct api_server::impl {
  explicit impl(server_options opts);

  /// Accepts connections until the context stops.
  void accept();
  void record(request_record r);
  /// Registers a watch stream's way to end it; returns its id.
  int add_closer(std::function<void()> close);
  void remove_closer(int id);

  server_options options;
  std::unique_ptr<test_ca> ca;
  store objects;
  faults injected;
  authorizer access;
  std::set<std::string> tokens;
  /// A request needs a token or a client certificate.
  bool auth_required = false;
  std::atomic<std::int64_t> bookmark_ms;

  mutable std::mutex log_mutex;
  std::vector<request_record> log;

  std::mutex closers_mutex;
  std::map<int, std::function<void()>> closers;
  int next_closer = 1;

  std::optional<boost::asio::ssl::context> tls;
  boost::asio::io_context context;
  boost::asio::ip::tcp::acceptor acceptor{context};
  std::unique_ptr<api_handler> handler;
  std::thread thread;
};

} // namespace ganglion::test::kube
