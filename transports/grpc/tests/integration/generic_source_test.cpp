// The generic source against real gRPC signal services in the test process.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <set>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../support/test_signal_server.hpp"
#include "eventually.hpp"
#include "files.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/grpc/spec.hpp"
#include "ganglion/grpc/transport.hpp"
#include "http_sink.hpp"
#include "kind_manifests.hpp"
#include "kube/test_ca.hpp"
#include "log_capture.hpp"

using namespace ganglion;
namespace gg = ganglion::grpc;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

/// A bus that keeps every event it accepts; it refuses (saturated) the first `refuse` offers.
class recording_bus : public core::bus_publisher {
public:
  void publish(core::event&& e, core::publish_done done) override {
    {
      std::lock_guard guard{mutex_};
      ++offers_;
      if (refuse_ > 0) {
        --refuse_;
        done(core::publish_status::saturated, {});
        return;
      }
      events_.push_back(std::move(e));
    }
    changed_.notify_all();
    done(core::publish_status::accepted, {});
  }
  std::vector<core::event> wait_for(std::size_t n, std::chrono::milliseconds timeout = 10s) {
    std::unique_lock lock{mutex_};
    changed_.wait_for(lock, timeout, [&] { return events_.size() >= n; });
    return events_;
  }
  std::size_t size() {
    std::lock_guard guard{mutex_};
    return events_.size();
  }
  void refuse(int n) {
    std::lock_guard guard{mutex_};
    refuse_ = n;
  }
  int offers() {
    std::lock_guard guard{mutex_};
    return offers_;
  }

private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<core::event> events_;
  int refuse_ = 0;
  int offers_ = 0;
};

test::signal_server_options serve(std::string host = "127.0.0.1", int port = 0) {
  test::signal_server_options o;
  o.host = std::move(host);
  o.port = port;
  return o;
}

test::signal_server_options with_token(std::string token) {
  auto o = serve();
  o.token = std::move(token);
  return o;
}

test::signal_server_options with_tls(const test::kube::key_pair& pair) {
  auto o = serve();
  o.cert_pem = pair.certificate_pem;
  o.key_pem = pair.key_pem;
  return o;
}

std::vector<std::string> bodies(const std::vector<core::event>& events) {
  std::vector<std::string> out;
  for (const auto& e : events)
    out.push_back(json::parse(e.data)["body"].dump());
  return out;
}

class generic_source_test : public ::testing::Test {
protected:
  generic_source_test() {
    opts.initial_backoff = 50ms;
    opts.max_backoff = 200ms;
    opts.connect_timeout = 400ms;
  }

  test::event_under_test<gg::generic_spec>& add(const std::string& url) {
    spec.url = url;
    spec.config = "key1: value1\nkey2: value2";
    spec.insecure = true;
    spec.json_body = true;
    return spec;
  }

  std::unique_ptr<core::source> start() {
    return core::start_source(gg::make_source_factory(opts), context());
  }

  core::source_context context() {
    es.metadata.name = "signals";
    test::put_event(es, "generic", "example", spec);
    core::source_context ctx;
    ctx.event_source_name = "signals";
    ctx.event_name = "example";
    ctx.type = "generic";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.secrets = std::make_shared<core::secret_store>(secrets);
    ctx.metrics = &metrics;
    ctx.fail = [this](const std::string& error) { record_end("fail: " + error); };
    ctx.give_up = [this](const std::string& error) { record_end(error); };
    ctx.connected = [this] { ++connects; };
    return ctx;
  }

  void record_end(const std::string& error) {
    std::lock_guard guard{mutex};
    ended.push_back(error);
  }
  std::vector<std::string> ends() {
    std::lock_guard guard{mutex};
    return ended;
  }

  std::uint64_t counter(const std::string& name, const std::string& reason = {}) {
    core::labels labels{{"eventsource", "signals"}, {"event", "example"}};
    if (!reason.empty())
      labels.emplace_back("reason", reason);
    return metrics.get_counter(name, "", labels).value();
  }

  std::string url_of(const test::test_signal_server& server) {
    return "127.0.0.1:" + std::to_string(server.port());
  }

  dsl::event_source es;
  test::event_under_test<gg::generic_spec> spec;
  std::shared_ptr<recording_bus> bus = std::make_shared<recording_bus>();
  core::metrics_registry metrics;
  gg::options opts;
  std::string secrets = test::temp_dir();
  std::mutex mutex;
  std::vector<std::string> ended;
  std::atomic<int> connects{0};
  test::log_capture log;
};

TEST_F(generic_source_test, events_flow_with_argo_data_layout) {
  test::test_signal_server server;
  ASSERT_TRUE(server.started());
  add(url_of(server)).metadata = {{"team", "billing"}};
  auto source = start();
  server.send(R"({ "id": 7, "items": [1, 2] })");
  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  const auto& ev = events[0];
  EXPECT_EQ(ev.type, "generic");
  EXPECT_EQ(ev.source, "signals");
  EXPECT_EQ(ev.subject, "example");
  EXPECT_EQ(ev.id.size(), 32u);
  EXPECT_EQ(ev.data, R"({"body":{"id":7,"items":[1,2]},"metadata":{"team":"billing"}})");
  auto streams = server.streams();
  ASSERT_EQ(streams.size(), 1u);
  EXPECT_EQ(streams[0].name, "example");
  EXPECT_EQ(streams[0].config, "key1: value1\nkey2: value2");
  EXPECT_EQ(streams[0].authorization, "");
  EXPECT_TRUE(test::eventually([&] { return counter("ganglion_events_accepted_total") == 1; }));
}

TEST_F(generic_source_test, without_json_body_the_payload_is_base64_and_empty_is_null) {
  test::test_signal_server server;
  add(url_of(server)).json_body = false;
  auto source = start();
  server.send(std::string("\0\x01hi", 4));
  server.send("");
  auto events = bus->wait_for(2);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].data, R"({"body":"AAFoaQ=="})");
  EXPECT_EQ(events[1].data, R"({"body":null})");
}

TEST_F(generic_source_test, bad_payloads_are_counted_and_the_stream_goes_on) {
  test::test_signal_server server;
  add(url_of(server));
  opts.max_payload_bytes = 1000;
  auto source = start();
  server.send("{not json");
  server.send("\"" + std::string(2000, 'x') + "\"");
  server.send(R"({"ok":true})");
  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(bodies(events)[0], R"({"ok":true})");
  EXPECT_EQ(counter("ganglion_events_rejected_total", "invalid_json"), 1u);
  EXPECT_EQ(counter("ganglion_events_rejected_total", "too_large"), 1u);
  EXPECT_EQ(counter("ganglion_events_received_total"), 3u);
  EXPECT_EQ(server.streams().size(), 1u) << "the stream was not broken";
  EXPECT_EQ(log.count("{not json"), 0u) << "the payload is not echoed in the log";
}

TEST_F(generic_source_test, a_message_over_the_grpc_limit_ends_the_stream_and_it_reconnects) {
  test::test_signal_server server;
  add(url_of(server));
  opts.max_payload_bytes = 1000;
  opts.max_message_bytes = 4096;
  auto source = start();
  server.send("\"" + std::string(10000, 'x') + "\"");
  ASSERT_TRUE(test::eventually(
    [&] { return counter("ganglion_events_rejected_total", "too_large") == 1; }));
  // What the service writes to a stream the client has ended is lost to it: send on the new one.
  ASSERT_TRUE(test::eventually(
    [&] { return server.streams().size() == 2 && server.open_streams() == 1; }));
  server.send(R"({"after":1})");
  auto events = bus->wait_for(1);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(bodies(events)[0], R"({"after":1})");
  EXPECT_TRUE(ends().empty());
}

TEST_F(generic_source_test, sends_the_bearer_token_and_gives_up_on_a_wrong_one) {
  test::write_file(secrets + "/signal-auth/token", "s3cret\n");
  {
    test::test_signal_server server{with_token("s3cret")};
    add(url_of(server)).auth_secret = dsl::secret_key_selector{"signal-auth", "token"};
    auto source = start();
    server.send(R"({"n":1})");
    ASSERT_EQ(bus->wait_for(1).size(), 1u);
    EXPECT_EQ(server.streams()[0].authorization, "Bearer s3cret");
  }
  test::test_signal_server server{with_token("other")};
  add(url_of(server)).auth_secret = dsl::secret_key_selector{"signal-auth", "token"};
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return !ends().empty(); }));
  EXPECT_NE(ends()[0].find("3 attempts in a row failed"), std::string::npos) << ends()[0];
  EXPECT_NE(ends()[0].find("UNAUTHENTICATED: invalid bearer token"), std::string::npos) << ends()[0];
  EXPECT_EQ(ends()[0].rfind("fail:", 0), std::string::npos) << "give_up, not a restartable failure";
}

TEST_F(generic_source_test, a_missing_auth_secret_refuses_to_start) {
  test::test_signal_server server;
  add(url_of(server)).auth_secret = dsl::secret_key_selector{"nope", "token"};
  EXPECT_THROW(start(), core::source_error);
}

TEST_F(generic_source_test, tls_verified_with_the_ca_file) {
  test::kube::test_ca ca;
  auto pair = ca.issue_server();
  test::test_signal_server server{with_tls(pair)};
  auto dir = test::temp_dir();
  test::write_file(dir + "/ca.pem", ca.certificate_pem());
  opts.ca_file = dir + "/ca.pem";
  add("ipv4:127.0.0.1:" + std::to_string(server.port())).insecure = false;
  auto source = start();
  server.send(R"({"tls":true})");
  ASSERT_EQ(bus->wait_for(1).size(), 1u);

  // A server the CA did not sign is refused.
  test::kube::test_ca stranger;
  auto other = stranger.issue_server();
  test::test_signal_server impostor{with_tls(other)};
  add("127.0.0.1:" + std::to_string(impostor.port())).insecure = false;
  auto refused = start();
  impostor.send(R"({"tls":false})");
  ASSERT_TRUE(test::eventually([&] { return !ends().empty(); }));
  EXPECT_NE(ends()[0].find("cannot connect"), std::string::npos) << ends()[0];
  EXPECT_EQ(bus->size(), 1u);
}

TEST_F(generic_source_test, a_service_killed_mid_stream_and_restarted_loses_nothing_read) {
  auto server = std::make_unique<test::test_signal_server>();
  auto port = server->port();
  add(url_of(*server));
  opts.connect_timeout = 300ms;
  opts.initial_backoff = 200ms;
  auto source = start();
  for (int i = 1; i <= 5; ++i)
    server->send(json{{"n", i}}.dump());
  ASSERT_EQ(bus->wait_for(5).size(), 5u);
  server.reset();
  server = std::make_unique<test::test_signal_server>(serve("127.0.0.1", port));
  ASSERT_TRUE(server->started());
  for (int i = 6; i <= 10; ++i)
    server->send(json{{"n", i}}.dump());
  auto events = bus->wait_for(10);
  ASSERT_EQ(events.size(), 10u);
  for (int i = 0; i < 10; ++i)
    EXPECT_EQ(bodies(events)[i], (json{{"n", i + 1}}.dump()));
  EXPECT_TRUE(ends().empty());
}

TEST_F(generic_source_test, waits_pending_and_reports_connected_when_its_first_stream_opens) {
  auto port = test::free_port();
  add("127.0.0.1:" + std::to_string(port));
  opts.max_failed_attempts = 1000;
  EXPECT_EQ(gg::make_source_factory(opts).waiting_for(context()),
            "connecting to 127.0.0.1:" + std::to_string(port));
  auto source = start();
  ASSERT_TRUE(
    test::eventually([&] { return counter("ganglion_source_connect_failures_total") > 0; }));
  EXPECT_EQ(connects.load(), 0) << "nothing listens on the port: no stream opened";

  test::test_signal_server server{serve("127.0.0.1", port)};
  ASSERT_TRUE(server.started());
  ASSERT_TRUE(test::eventually([&] { return connects.load() > 0; }));
  server.send(R"({"n":1})");
  ASSERT_EQ(bus->wait_for(1).size(), 1u);
  EXPECT_EQ(connects.load(), 1);
  EXPECT_TRUE(ends().empty());
}

TEST_F(generic_source_test, a_service_that_never_comes_back_gives_up_after_three_attempts) {
  auto server = std::make_unique<test::test_signal_server>();
  add(url_of(*server));
  auto source = start();
  server->send(R"({"n":1})");
  ASSERT_EQ(bus->wait_for(1).size(), 1u);
  server.reset();
  ASSERT_TRUE(test::eventually([&] { return !ends().empty(); }));
  EXPECT_NE(ends()[0].find("3 attempts in a row failed"), std::string::npos) << ends()[0];
  auto failures = counter("ganglion_source_connect_failures_total");
  EXPECT_EQ(failures, 3u);
  // Kept: a reconnection loop that should have stopped leaves no trace but more failures.
  std::this_thread::sleep_for(600ms);
  EXPECT_EQ(counter("ganglion_source_connect_failures_total"), failures) << "no hot loop";
  EXPECT_EQ(ends().size(), 1u);
}

TEST_F(generic_source_test, losing_one_of_two_replicas_is_not_a_failure) {
  test::test_signal_server first{serve()};
  auto port = first.port();
  auto second = std::make_unique<test::test_signal_server>(serve("127.0.0.2", port));
  ASSERT_TRUE(second->started()) << "127.0.0.2 is loopback on Linux";
  auto p = std::to_string(port);
  add("ipv4:127.0.0.1:" + p + ",127.0.0.2:" + p);
  auto source = start();
  ASSERT_TRUE(test::eventually(
    [&] { return first.open_streams() == 1 && second->open_streams() == 1; }));
  first.send(R"({"from":1})");
  second->send(R"({"from":2})");
  ASSERT_EQ(bus->wait_for(2).size(), 2u);
  second.reset();
  // Five failed attempts of the lost replica: a single replica would have given up at the third,
  // before the next attempt began.
  ASSERT_TRUE(
    test::eventually([&] { return counter("ganglion_source_connect_failures_total") >= 5u; }, 10s));
  EXPECT_EQ(ends().size(), 0u);
  first.send(R"({"from":1,"after":true})");
  ASSERT_EQ(bus->wait_for(3).size(), 3u);
}

TEST_F(generic_source_test, stopping_the_source_cancels_the_stream) {
  test::test_signal_server server;
  add(url_of(server));
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return server.open_streams() == 1; }));
  source.reset();
  ASSERT_TRUE(test::eventually([&] { return server.open_streams() == 0; }, 2s));
  EXPECT_TRUE(server.streams()[0].cancelled_by_client);
}

TEST_F(generic_source_test, a_full_bus_holds_the_stream_and_drops_nothing) {
  test::test_signal_server server;
  add(url_of(server));
  bus->refuse(5);
  auto source = start();
  for (int i = 1; i <= 20; ++i)
    server.send(json{{"n", i}}.dump());
  auto events = bus->wait_for(20);
  ASSERT_EQ(events.size(), 20u);
  std::set<std::string> seen;
  for (const auto& b : bodies(events))
    seen.insert(b);
  EXPECT_EQ(seen.size(), 20u);
  EXPECT_EQ(bus->offers(), 25);
  // The bus keeps an event before it answers: the last answer may still be on its way.
  EXPECT_TRUE(test::eventually([&] { return counter("ganglion_events_accepted_total") == 20; }))
    << counter("ganglion_events_accepted_total");
}

TEST_F(generic_source_test, a_server_that_sends_garbage_is_a_failed_attempt_not_a_crash) {
  // A TCP server that answers every connection with bytes that are not HTTP/2.
  int listener = ::socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
  ASSERT_EQ(::listen(listener, 16), 0);
  socklen_t length = sizeof address;
  ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length);
  std::atomic<int> connections{0};
  std::thread garbage([&] {
    for (;;) {
      int c = ::accept(listener, nullptr, nullptr);
      if (c < 0)
        return;
      ++connections;
      std::string noise(4096, '\0');
      for (std::size_t i = 0; i < noise.size(); ++i)
        noise[i] = static_cast<char>((i * 7919 + 13) & 0xff);
      [[maybe_unused]] auto sent = ::send(c, noise.data(), noise.size(), MSG_NOSIGNAL);
      ::close(c);
    }
  });
  add("127.0.0.1:" + std::to_string(ntohs(address.sin_port)));
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return !ends().empty(); }));
  EXPECT_NE(ends()[0].find("3 attempts in a row failed"), std::string::npos) << ends()[0];
  EXPECT_GE(connections.load(), 1);
  EXPECT_EQ(bus->size(), 0u);
  source.reset();
  ::shutdown(listener, SHUT_RDWR);
  ::close(listener);
  garbage.join();
}

TEST_F(generic_source_test, check_refuses_a_bad_url_and_an_empty_config) {
  add("http://nowhere:80").config = "";
  es.metadata.name = "signals";
  test::put_event(es, "generic", "example", spec);
  core::source_context ctx;
  ctx.event_source_name = "signals";
  ctx.event_name = "example";
  ctx.type = "generic";
  ctx.manifest = &es;
  auto problems = gg::check_source(ctx);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].find("is not host:port"), std::string::npos) << problems[0];
  EXPECT_NE(problems[1].find("config can't be empty"), std::string::npos) << problems[1];
}

} // namespace
