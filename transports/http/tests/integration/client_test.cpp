// http::client (libcurl multi) against http_sink.

#include <algorithm>
#include <cctype>
#include <future>

#include <gtest/gtest.h>

#include "ganglion/http/client.hpp"
#include "s3/sigv4.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// Submits `r` and waits for its completion.
http::client_response send(http::client& c, http::client_request r) {
  auto done = std::make_shared<std::promise<http::client_response>>();
  auto result = done->get_future();
  EXPECT_TRUE(
    c.submit(std::move(r), [done](http::client_response res) { done->set_value(std::move(res)); }));
  EXPECT_EQ(result.wait_for(20s), std::future_status::ready);
  return result.get();
}

TEST(http_client, sends_method_headers_and_body) {
  test::http_sink sink;
  http::client c;
  http::client_request r;
  r.method = "PUT";
  r.url = sink.url("/put?x=1");
  r.headers = {{"X-Test", "yes"}, {"Content-Type", "application/json"}};
  r.body = R"({"a":1})";
  auto res = send(c, r);
  EXPECT_EQ(res.status, 200);
  EXPECT_EQ(res.body, "ok");
  EXPECT_TRUE(res.error.empty());
  auto seen = sink.requests();
  ASSERT_EQ(seen.size(), 1u);
  EXPECT_EQ(seen[0].method, "PUT");
  EXPECT_EQ(seen[0].target, "/put?x=1");
  EXPECT_EQ(seen[0].body, R"({"a":1})");
  EXPECT_EQ(seen[0].header("x-test"), "yes");
  EXPECT_EQ(seen[0].header("Content-Type"), "application/json");
}

TEST(http_client, a_response_body_over_the_limit_fails_the_request) {
  test::http_sink sink; // answers "ok"
  http::client c;
  http::client_request r;
  r.url = sink.url();
  r.max_response_bytes = 1;
  auto res = send(c, r);
  EXPECT_EQ(res.status, 0);
  EXPECT_TRUE(res.body.empty());
  EXPECT_EQ(res.error, "response body larger than 1 bytes");
  // The client goes on: the same limit as the body passes.
  r.max_response_bytes = 2;
  res = send(c, r);
  EXPECT_EQ(res.status, 200);
  EXPECT_EQ(res.body, "ok");
}

TEST(http_client, reports_any_status) {
  test::http_sink sink{503};
  http::client c;
  http::client_request r;
  r.url = sink.url();
  auto res = send(c, r);
  EXPECT_EQ(res.status, 503);
  EXPECT_TRUE(res.error.empty());
}

TEST(http_client, returns_the_response_headers_asked_for) {
  test::http_sink sink;
  http::client c;
  http::client_request r;
  r.method = "GET";
  r.url = sink.url();
  r.response_headers = {"content-TYPE", "X-Absent"};
  auto res = send(c, r);
  ASSERT_EQ(res.status, 200);
  ASSERT_EQ(res.headers.size(), 1u);
  EXPECT_EQ(res.headers[0].first, "Content-Type");
  EXPECT_EQ(res.headers[0].second, "text/plain");
  r.response_headers.clear();
  EXPECT_TRUE(send(c, r).headers.empty());
}

TEST(http_client, basic_auth) {
  test::http_sink sink;
  http::client c;
  http::client_request r;
  r.url = sink.url();
  r.basic_auth.emplace("user", "pass");
  EXPECT_EQ(send(c, r).status, 200);
  EXPECT_EQ(sink.requests().at(0).header("Authorization"), "Basic dXNlcjpwYXNz");
}

// aws_sigv4: libcurl signs the request (its headers, a session token among them), and the
// signature verifies with the test endpoints' SigV4 verifier.
TEST(http_client, aws_sigv4_signs_the_request_and_its_headers) {
  test::http_sink sink;
  http::client c;
  http::client_request r;
  r.url = sink.url("/path?a=1&b=2");
  r.body = R"({"QueueName":"q"})";
  r.headers = {{"Content-Type", "application/x-amz-json-1.0"},
               {"X-Amz-Security-Token", "token-1"}};
  r.aws_sigv4 = "aws:amz:eu-west-1:sqs";
  r.aws_credentials = {"AKIDTEST", "secret-key"};
  EXPECT_EQ(send(c, r).status, 200);
  auto seen = sink.requests().at(0);
  auto auth = test::s3::parse_authorization(seen.header("Authorization"));
  ASSERT_TRUE(auth) << seen.header("Authorization");
  EXPECT_EQ(auth->access_key, "AKIDTEST");
  EXPECT_EQ(auth->region, "eu-west-1");
  EXPECT_EQ(auth->service, "sqs");
  for (const auto* name : {"host", "x-amz-date", "x-amz-security-token", "content-type"})
    EXPECT_NE(std::find(auth->signed_headers.begin(), auth->signed_headers.end(), name),
              auth->signed_headers.end())
      << name;
  test::s3::sigv4_request signed_request;
  signed_request.method = seen.method;
  signed_request.path = "/path";
  signed_request.query = "a=1&b=2";
  for (const auto& [name, value] : seen.headers) {
    std::string lower;
    for (char ch : name)
      lower += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    signed_request.headers[lower] = value;
  }
  signed_request.payload_hash = test::s3::sha256_hex(seen.body);
  signed_request.amz_date = seen.header("X-Amz-Date");
  EXPECT_EQ(test::s3::expected_signature(signed_request, *auth, "secret-key"), auth->signature);
  EXPECT_NE(test::s3::expected_signature(signed_request, *auth, "other-key"), auth->signature);
}

TEST(http_client, aws_sigv4_and_basic_auth_together_are_refused) {
  test::http_sink sink;
  http::client c;
  http::client_request r;
  r.url = sink.url();
  r.basic_auth.emplace("user", "pass");
  r.aws_sigv4 = "aws:amz:us-east-1:sqs";
  auto res = send(c, r);
  EXPECT_EQ(res.status, 0);
  EXPECT_NE(res.error.find("not both"), std::string::npos) << res.error;
}

// Easy handles are reused between requests: nothing of one request may leak into the next.
TEST(http_client, a_reused_handle_carries_nothing_from_the_previous_request) {
  test::http_sink sink;
  http::client c;
  http::client_request first;
  first.method = "PUT";
  first.url = sink.url("/first");
  first.basic_auth.emplace("user", "pass");
  first.headers = {{"X-Only-First", "1"}};
  first.body = "one";
  EXPECT_EQ(send(c, first).status, 200);
  http::client_request second;
  second.method = "GET";
  second.url = sink.url("/second");
  EXPECT_EQ(send(c, second).status, 200);
  http::client_request third;
  third.url = sink.url("/third");
  third.body = "three";
  EXPECT_EQ(send(c, third).status, 200);
  auto seen = sink.requests();
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[1].method, "GET");
  EXPECT_EQ(seen[1].target, "/second");
  EXPECT_EQ(seen[1].header("Authorization"), "");
  EXPECT_EQ(seen[1].header("X-Only-First"), "");
  EXPECT_EQ(seen[1].body, "");
  EXPECT_EQ(seen[2].method, "POST");
  EXPECT_EQ(seen[2].body, "three");
  EXPECT_EQ(seen[2].header("Authorization"), "");
}

TEST(http_client, connection_refused_is_an_error) {
  http::client c;
  http::client_request r;
  r.url = "http://127.0.0.1:" + std::to_string(test::free_port()) + "/";
  auto res = send(c, r);
  EXPECT_EQ(res.status, 0);
  EXPECT_FALSE(res.error.empty());
}

TEST(http_client, timeout_is_an_error) {
  test::http_sink sink;
  sink.set_delay(3s);
  http::client c;
  http::client_request r;
  r.url = sink.url();
  r.timeout = 200ms;
  auto begin = std::chrono::steady_clock::now();
  auto res = send(c, r);
  EXPECT_EQ(res.status, 0);
  EXPECT_NE(res.error.find("timed out"), std::string::npos) << res.error;
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 2s);
}

TEST(http_client, header_injection_is_refused) {
  test::http_sink sink;
  http::client c;
  http::client_request r;
  r.url = sink.url();
  r.headers = {{"X-Bad", "a\r\nX-Injected: b"}};
  auto res = send(c, r);
  EXPECT_EQ(res.status, 0);
  EXPECT_NE(res.error.find("invalid HTTP header"), std::string::npos);
  EXPECT_TRUE(sink.requests().empty());
}

TEST(http_client, requests_run_concurrently) {
  test::http_sink sink;
  sink.set_delay(300ms);
  http::client c;
  std::vector<std::future<http::client_response>> results;
  std::vector<std::shared_ptr<std::promise<http::client_response>>> promises;
  auto begin = std::chrono::steady_clock::now();
  for (int i = 0; i < 10; ++i) {
    auto p = std::make_shared<std::promise<http::client_response>>();
    results.push_back(p->get_future());
    http::client_request r;
    r.url = sink.url("/" + std::to_string(i));
    ASSERT_TRUE(c.submit(r, [p](http::client_response res) { p->set_value(std::move(res)); }));
  }
  for (auto& f : results)
    EXPECT_EQ(f.get().status, 200);
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 2s);
  EXPECT_EQ(sink.requests().size(), 10u);
  EXPECT_EQ(c.in_flight(), 0u);
}

TEST(http_client, bounded_in_flight) {
  test::http_sink sink;
  sink.set_delay(500ms);
  http::client_options options;
  options.max_in_flight = 1;
  http::client c{options};
  std::promise<http::client_response> first;
  http::client_request r;
  r.url = sink.url();
  ASSERT_TRUE(c.submit(r, [&](http::client_response res) { first.set_value(std::move(res)); }));
  EXPECT_FALSE(
    c.submit(r, [](http::client_response) { ADD_FAILURE() << "refused request completed"; }));
  EXPECT_EQ(first.get_future().get().status, 200);
  EXPECT_EQ(send(c, r).status, 200);
}

TEST(http_client, shutdown_fails_pending_requests) {
  test::http_sink sink;
  sink.set_delay(5s);
  auto c = std::make_unique<http::client>();
  std::promise<http::client_response> pending;
  http::client_request r;
  r.url = sink.url();
  ASSERT_TRUE(c->submit(r, [&](http::client_response res) { pending.set_value(std::move(res)); }));
  ASSERT_TRUE(sink.wait_for(1, 5s));
  auto begin = std::chrono::steady_clock::now();
  c->shutdown();
  auto res = pending.get_future().get();
  EXPECT_EQ(res.status, 0);
  EXPECT_EQ(res.error, "HTTP client shut down");
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 2s);
  EXPECT_FALSE(c->submit(r, [](http::client_response) {}));
}

} // namespace
