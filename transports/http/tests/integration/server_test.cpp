// server_pool against a real libcurl client on loopback.

#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <future>
#include <thread>

#include <gtest/gtest.h>

#include "ganglion/http/server.hpp"
#include "eventually.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

std::string url(std::uint16_t port, const std::string& path) {
  return "http://127.0.0.1:" + std::to_string(port) + path;
}

http::handler echo() {
  return [](http::request&& req, http::responder reply) {
    reply(http::text_response(200, req.method + " " + req.path + " " + req.query + " " + req.body));
  };
}

TEST(http_server, routes_by_exact_path) {
  http::server_pool pool;
  auto port = test::free_port();
  auto a = pool.add_route("127.0.0.1", port, "/a", echo());
  auto b = pool.add_route("127.0.0.1", port, "/b", [](http::request&&, http::responder reply) {
    reply(http::text_response(201, "b"));
  });
  EXPECT_EQ(pool.listener_count(), 1u);
  auto ra = test::http_request("POST", url(port, "/a?x=1"), "hello");
  EXPECT_EQ(ra.status, 200) << ra.error;
  EXPECT_EQ(ra.body, "POST /a x=1 hello");
  auto rb = test::http_request("GET", url(port, "/b"));
  EXPECT_EQ(rb.status, 201);
  EXPECT_EQ(rb.body, "b");
  EXPECT_EQ(test::http_request("GET", url(port, "/a/")).status, 404);
  EXPECT_EQ(test::http_request("GET", url(port, "/c")).status, 404);
}

TEST(http_server, a_route_knows_the_address_its_listener_is_bound_to) {
  http::server_pool pool;
  auto any = pool.add_route("127.0.0.1", 0, "/a", echo());
  EXPECT_NE(any.port(), 0);
  EXPECT_EQ(any.address(), "127.0.0.1:" + std::to_string(any.port()));
  auto port = test::free_port();
  auto all = pool.add_route("0.0.0.0", port, "/b", echo());
  EXPECT_EQ(all.address(), "0.0.0.0:" + std::to_string(port));
  EXPECT_EQ(http::route{}.address(), "");
}

TEST(http_server, health_on_every_listener) {
  http::server_pool pool;
  auto p1 = test::free_port();
  auto p2 = test::free_port();
  auto a = pool.add_route("127.0.0.1", p1, "/a", echo());
  auto b = pool.add_route("127.0.0.1", p2, "/b", echo());
  for (auto port : {p1, p2}) {
    auto r = test::http_request("GET", url(port, "/health"));
    EXPECT_EQ(r.status, 200);
    EXPECT_EQ(r.body, "OK");
  }
}

TEST(http_server, a_route_may_claim_health) {
  http::server_pool pool;
  auto port = test::free_port();
  auto h = pool.add_route("127.0.0.1", port, "/health", [](http::request&&, http::responder reply) {
    reply(http::text_response(503, "starting"));
  });
  EXPECT_EQ(test::http_request("GET", url(port, "/health")).status, 503);
}

TEST(http_server, rejects_body_over_limit_by_content_length) {
  http::server_pool pool;
  auto port = test::free_port();
  std::atomic<int> served{0};
  std::atomic<int> too_large{0};
  http::route_options options;
  options.body_limit = 10;
  options.on_too_large = [&] { ++too_large; };
  auto r = pool.add_route("127.0.0.1", port, "/small",
                          [&](http::request&&, http::responder reply) {
                            ++served;
                            reply(http::text_response(200, "ok"));
                          },
                          options);
  auto big = test::http_request("POST", url(port, "/small"), std::string(100, 'x'));
  EXPECT_EQ(big.status, 413) << big.error;
  EXPECT_EQ(too_large, 1);
  EXPECT_EQ(served, 0);
  EXPECT_EQ(test::http_request("POST", url(port, "/small"), "0123456789").status, 200);
  EXPECT_EQ(served, 1);
}

TEST(http_server, rejects_chunked_body_over_limit_while_reading) {
  http::server_pool pool;
  auto port = test::free_port();
  std::atomic<int> served{0};
  http::route_options options;
  options.body_limit = 1000;
  auto r = pool.add_route("127.0.0.1", port, "/small",
                          [&](http::request&& req, http::responder reply) {
                            ++served;
                            reply(http::text_response(200, std::to_string(req.body.size())));
                          },
                          options);
  std::vector<std::string> chunked{"Transfer-Encoding: chunked"};
  auto big = test::http_request("POST", url(port, "/small"), std::string(5000, 'x'), chunked);
  EXPECT_EQ(big.status, 413) << big.error;
  EXPECT_EQ(served, 0);
  auto fits = test::http_request("POST", url(port, "/small"), std::string(900, 'x'), chunked);
  EXPECT_EQ(fits.status, 200) << fits.error;
  EXPECT_EQ(fits.body, "900");
}

TEST(http_server, reply_from_another_thread) {
  http::server_pool pool;
  auto port = test::free_port();
  std::vector<std::thread> workers;
  std::mutex mutex;
  auto r =
    pool.add_route("127.0.0.1", port, "/later", [&](http::request&& req, http::responder reply) {
      std::lock_guard guard{mutex};
      workers.emplace_back([reply, body = std::move(req.body)] {
        std::this_thread::sleep_for(50ms);
        reply(http::text_response(202, "later:" + body));
      });
    });
  auto res = test::http_request("POST", url(port, "/later"), "x");
  EXPECT_EQ(res.status, 202);
  EXPECT_EQ(res.body, "later:x");
  for (auto& w : workers)
    w.join();
}

TEST(http_server, slow_replies_do_not_block_other_requests) {
  http::server_options settings;
  settings.threads = 1;
  http::server_pool pool{settings};
  auto port = test::free_port();
  std::mutex mutex;
  std::vector<std::thread> workers;
  auto r = pool.add_route("127.0.0.1", port, "/slow", [&](http::request&&, http::responder reply) {
    std::lock_guard guard{mutex};
    workers.emplace_back([reply] {
      std::this_thread::sleep_for(500ms);
      reply(http::text_response(200, "slow"));
    });
  });
  auto start = std::chrono::steady_clock::now();
  std::vector<std::future<test::http_response>> calls;
  for (int i = 0; i < 6; ++i)
    calls.push_back(std::async(std::launch::async,
                               [&] { return test::http_request("GET", url(port, "/slow")); }));
  for (auto& c : calls)
    EXPECT_EQ(c.get().status, 200);
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  std::lock_guard guard{mutex};
  for (auto& w : workers)
    w.join();
}

TEST(http_server, dropped_responder_answers_500) {
  http::server_pool pool;
  auto port = test::free_port();
  auto r = pool.add_route("127.0.0.1", port, "/drop", [](http::request&&, http::responder) {});
  EXPECT_EQ(test::http_request("GET", url(port, "/drop")).status, 500);
}

TEST(http_server, throwing_handler_answers_500) {
  http::server_pool pool;
  auto port = test::free_port();
  auto r = pool.add_route("127.0.0.1", port, "/boom", [](http::request&&, http::responder) {
    throw std::runtime_error("boom");
  });
  auto res = test::http_request("GET", url(port, "/boom"));
  EXPECT_EQ(res.status, 500);
  EXPECT_EQ(res.body, "boom");
}

TEST(http_server, port_in_use_is_a_clear_error) {
  http::server_pool first;
  http::server_pool second;
  auto port = test::free_port();
  auto r = first.add_route("127.0.0.1", port, "/a", echo());
  try {
    auto again = second.add_route("127.0.0.1", port, "/b", echo());
    FAIL() << "binding a port in use must throw";
  } catch (const http::server_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "address 127.0.0.1:" + std::to_string(port) + " already in use");
  }
}

TEST(http_server, duplicate_path_is_an_error) {
  http::server_pool pool;
  auto port = test::free_port();
  auto a = pool.add_route("127.0.0.1", port, "/a", echo());
  EXPECT_THROW(pool.add_route("127.0.0.1", port, "/a", echo()), http::server_error);
  EXPECT_THROW(pool.add_route("127.0.0.1", port, "no-slash", echo()), http::server_error);
}

TEST(http_server, removing_last_route_closes_the_listener) {
  http::server_pool pool;
  auto port = test::free_port();
  auto a = pool.add_route("127.0.0.1", port, "/a", echo());
  auto b = pool.add_route("127.0.0.1", port, "/b", echo());
  a.reset();
  EXPECT_EQ(test::http_request("GET", url(port, "/a")).status, 404);
  EXPECT_EQ(test::http_request("GET", url(port, "/b")).status, 200);
  b.reset();
  EXPECT_EQ(pool.listener_count(), 0u);
  auto closed = test::http_request("GET", url(port, "/health"));
  EXPECT_EQ(closed.status, 0);
  EXPECT_FALSE(closed.error.empty());
  // The port is free again at once.
  auto again = pool.add_route("127.0.0.1", port, "/a", echo());
  EXPECT_EQ(test::http_request("GET", url(port, "/a")).status, 200);
}

TEST(http_server, a_connection_over_the_limit_gets_503_and_the_others_keep_working) {
  http::server_options options;
  options.max_connections = 2;
  http::server_pool pool{options};
  auto port = test::free_port();
  auto a = pool.add_route("127.0.0.1", port, "/a", echo());
  // Two idle connections hold the listener's two places.
  std::vector<int> idle;
  for (int i = 0; i < 2; ++i) {
    int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ASSERT_EQ(::connect(fd, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
    idle.push_back(fd);
  }
  auto refused = test::http_request("GET", url(port, "/a"));
  EXPECT_EQ(refused.status, 503) << refused.error;
  ::close(idle.back());
  idle.pop_back();
  EXPECT_TRUE(test::eventually([&] { return test::http_request("GET", url(port, "/a")).status == 200; }));
  for (int fd : idle)
    ::close(fd);
}

TEST(http_server, oversized_headers_get_431) {
  http::server_options settings;
  settings.header_limit = 1024;
  http::server_pool pool{settings};
  auto port = test::free_port();
  auto a = pool.add_route("127.0.0.1", port, "/a", echo());
  auto res = test::http_request("GET", url(port, "/a"), {}, {"X-Big: " + std::string(4000, 'x')});
  EXPECT_EQ(res.status, 431);
}

TEST(http_server, port_zero_picks_a_free_port) {
  http::server_pool pool;
  auto a = pool.add_route("127.0.0.1", 0, "/a", echo());
  ASSERT_NE(a.port(), 0);
  EXPECT_EQ(test::http_request("GET", url(a.port(), "/a")).status, 200);
}

TEST(http_server, destroying_the_pool_with_a_pending_reply_is_safe) {
  auto port = test::free_port();
  std::promise<http::responder> held;
  auto future = held.get_future();
  std::thread client;
  {
    http::server_pool pool;
    auto r = pool.add_route("127.0.0.1", port, "/hold",
                            [&](http::request&&, http::responder reply) { held.set_value(reply); });
    client = std::thread([&] { test::http_request("GET", url(port, "/hold")); });
    auto reply = future.get();
    r.reset();
    reply(http::text_response(200, "too late"));
  }
  client.join();
}

} // namespace
