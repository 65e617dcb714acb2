// The amqp source over amqps:// to a RabbitMQ broker with a TLS listener (a self-signed
// certificate made by `openssl`, trusted through a CA secret).

#include <atomic>
#include <mutex>

#include <gtest/gtest.h>

#include "amqp_client.hpp"
#include "counting_bus.hpp"
#include "eventually.hpp"
#include "ganglion/amqp/spec.hpp"
#include "ganglion/amqp/transport.hpp"
#include "kind_manifests.hpp"
#include "rabbitmq_server.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

class amqp_tls : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    secrets = new std::string(test::temp_dir());
    const auto dir = *secrets + "/tls";
    test::write_file(dir + "/.keep", "");
    test::child_process openssl{{"openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes",
                                 "-keyout", dir + "/key.pem", "-out", dir + "/cert.pem", "-days",
                                 "1", "-subj", "/CN=localhost", "-addext",
                                 "subjectAltName=DNS:localhost,IP:127.0.0.1"}};
    auto code = openssl.wait(30s);
    ASSERT_TRUE(code.has_value() && *code == 0) << openssl.output();
    test::rabbitmq_server_options options;
    options.tls_cert_file = dir + "/cert.pem";
    options.tls_key_file = dir + "/key.pem";
    server = new test::rabbitmq_server(options);
  }
  static void TearDownTestSuite() {
    delete server;
    delete secrets;
  }

  /// Starts the source on `url` with `tls`; true once its consumer is set up.
  bool start(const std::string& name, const std::string& url,
             std::optional<dsl::tls_config> tls) {
    es.metadata.name = "secure";
    test::event_under_test<amqp::event_spec> e;
    e.url = url;
    e.exchange_name = name;
    e.exchange_type = "fanout";
    e.routing_key = "k";
    e.tls = std::move(tls);
    dsl::backoff quick;
    quick.duration_ns = 100'000'000;
    quick.steps = 3;
    e.connection_backoff = quick;
    test::put_event(es, "amqp", name, e);
    core::source_context ctx;
    ctx.event_source_name = "secure";
    ctx.event_name = name;
    ctx.type = "amqp";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.secrets = std::make_shared<core::secret_store>(*secrets);
    ctx.connected = [this] { ++connections; };
    ctx.fail = [this](const std::string& error) {
      std::lock_guard guard{mutex};
      failure = error;
    };
    source = core::start_source(amqp::make_source_factory(), ctx);
    return test::eventually([&] {
      std::lock_guard guard{mutex};
      return connections.load() > 0 || !failure.empty();
    }, 15s) && connections.load() > 0;
  }

  std::string tls_url() const {
    return "amqps://guest:guest@localhost:" + std::to_string(server->tls_port()) + "/";
  }

  static test::rabbitmq_server* server;
  static std::string* secrets;
  dsl::event_source es;
  std::shared_ptr<test::counting_bus> bus = std::make_shared<test::counting_bus>();
  std::unique_ptr<core::source> source;
  std::atomic<int> connections{0};
  std::mutex mutex;
  std::string failure;
};

test::rabbitmq_server* amqp_tls::server = nullptr;
std::string* amqp_tls::secrets = nullptr;

TEST_F(amqp_tls, a_ca_secret_verifies_the_broker_and_messages_flow) {
  dsl::tls_config tls;
  tls.ca_cert_secret = dsl::secret_key_selector{"tls", "cert.pem"};
  ASSERT_TRUE(start("verified", tls_url(), tls)) << failure;
  test::amqp_client client{server->port()};
  client.publish("verified", "k", "over tls");
  EXPECT_TRUE(bus->wait_for(1));
}

TEST_F(amqp_tls, an_unknown_ca_is_refused_and_insecure_skip_verify_connects) {
  ASSERT_FALSE(start("unverified", tls_url(), std::nullopt)) << "the system roots do not know it";
  {
    std::lock_guard guard{mutex};
    EXPECT_FALSE(failure.empty());
  }
  source.reset();
  dsl::tls_config skip;
  skip.insecure_skip_verify = true;
  failure.clear();
  EXPECT_TRUE(start("skipped", tls_url(), skip)) << failure;
}

} // namespace
