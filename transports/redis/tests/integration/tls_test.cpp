// Both redis sources against a redis-server that serves TLS only (a self-signed certificate
// made by `openssl`, trusted through a CA secret).

#include <gtest/gtest.h>

#include "files.hpp"
#include "redis_fixture.hpp"
#include "server_process.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

class redis_tls : public ::testing::Test {
protected:
  void SetUp() override {
    const auto dir = secrets + "/tls";
    test::write_self_signed_certificate(dir);
    test::redis_server_options options;
    options.tls_cert_file = dir + "/cert.pem";
    options.tls_key_file = dir + "/key.pem";
    server = std::make_unique<test::redis_server>(options);
    auto settings = test::plain(*server);
    settings.tls = redis::tls_settings{};
    settings.tls->ca_pem = test::read_file(dir + "/cert.pem");
    client = std::make_unique<test::redis_client>(settings);
    es.metadata.name = "secure";
  }

  static dsl::tls_config trusting_ca() {
    dsl::tls_config tls;
    tls.ca_cert_secret = dsl::secret_key_selector{"tls", "cert.pem"};
    return tls;
  }

  std::unique_ptr<core::source> start_pubsub(const dsl::tls_config& tls) {
    test::event_under_test<redis::event_spec> e;
    e.host_address = server->address();
    e.channels = {"orders"};
    e.tls = tls;
    test::put_event(es, "redis", "orders", e);
    return redis::make_source_factory(test::fast_options())(test::source_context(
      es, "redis", "orders", bus, nullptr, std::make_shared<core::secret_store>(secrets)));
  }

  std::string secrets = test::temp_dir();
  std::unique_ptr<test::redis_server> server;
  std::unique_ptr<test::redis_client> client;
  dsl::event_source es;
  std::shared_ptr<test::answering_bus> bus = std::make_shared<test::answering_bus>();
};

TEST_F(redis_tls, the_pubsub_source_trusts_the_server_through_the_ca_secret) {
  auto source = start_pubsub(trusting_ca());
  EXPECT_EQ(client->run({"PUBLISH", "orders", "x"}).integer, 1);
  ASSERT_TRUE(bus->wait_for(1));
  EXPECT_EQ(bus->events().front().data, R"({"channel":"orders","pattern":"","body":"x"})");
}

TEST_F(redis_tls, the_stream_source_reads_and_acknowledges_over_tls) {
  client->run({"XADD", "orders", "*", "seed", "0"});
  test::event_under_test<redis::stream_spec> e;
  e.host_address = server->address();
  e.streams = {"orders"};
  e.tls = trusting_ca();
  test::put_event(es, "redisStream", "orders", e);
  auto source = redis::make_stream_source_factory(test::fast_options())(test::source_context(
    es, "redisStream", "orders", bus, nullptr, std::make_shared<core::secret_store>(secrets)));
  auto id = client->run({"XADD", "orders", "*", "k", "v"}).text;
  ASSERT_TRUE(bus->wait_for(1));
  EXPECT_NE(bus->events().front().data.find(id), std::string::npos);
  EXPECT_TRUE(test::eventually(
    [&] { return client->run({"XPENDING", "orders", "argo-events-cg"}).elements[0].integer == 0; }));
}

TEST_F(redis_tls, an_untrusted_server_certificate_is_refused) {
  dsl::tls_config system_roots;
  system_roots.enabled = true;
  try {
    start_pubsub(system_roots);
    FAIL() << "expected a source_error";
  } catch (const core::source_error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("cannot connect to tls://" + server->address()), std::string::npos)
      << what;
    EXPECT_NE(what.find("certificate"), std::string::npos) << what;
  }
}

TEST_F(redis_tls, insecure_skip_verify_accepts_any_certificate) {
  dsl::tls_config skip;
  skip.insecure_skip_verify = true;
  auto source = start_pubsub(skip);
  EXPECT_EQ(client->run({"PUBLISH", "orders", "x"}).integer, 1);
  ASSERT_TRUE(bus->wait_for(1));
}

TEST_F(redis_tls, plain_tcp_to_a_tls_server_fails_to_start) {
  test::event_under_test<redis::event_spec> e;
  e.host_address = server->address();
  e.channels = {"orders"};
  test::put_event(es, "redis", "orders", e);
  auto opts = test::fast_options();
  opts.connect_timeout = 500ms;
  EXPECT_THROW(redis::make_source_factory(opts)(test::source_context(
                 es, "redis", "orders", bus, nullptr, nullptr)),
               core::source_error);
}

} // namespace
