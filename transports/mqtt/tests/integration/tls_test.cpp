// The mqtt source against a mosquitto broker that listens with TLS (a self-signed certificate
// made by `openssl`, trusted through a CA secret); the test publishes on a second, plain
// listener of the same broker.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "counting_bus.hpp"
#include "eventually.hpp"
#include "ganglion/mqtt/spec.hpp"
#include "ganglion/mqtt/transport.hpp"
#include "kind_manifests.hpp"
#include "mosquitto_server.hpp"
#include "mqtt_publisher.hpp"
#include "server_process.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

class mqtt_tls : public ::testing::Test {
protected:
  void SetUp() override {
    const auto dir = secrets + "/tls";
    test::write_self_signed_certificate(dir);
    plain_port = test::free_port();
    test::mosquitto_server_options options;
    options.cert_file = dir + "/cert.pem";
    options.key_file = dir + "/key.pem";
    options.extra_config = "listener " + std::to_string(plain_port) + " 127.0.0.1\n";
    broker = std::make_unique<test::mosquitto_server>(options);
  }

  std::unique_ptr<core::source> start(const mqtt::event_spec& spec) {
    test::event_under_test<mqtt::event_spec> e;
    static_cast<mqtt::event_spec&>(e) = spec;
    es.metadata.name = "secure";
    es.spec.events.clear();
    test::put_event(es, "mqtt", "readings", e);
    core::source_context ctx;
    ctx.event_source_name = "secure";
    ctx.event_name = "readings";
    ctx.type = "mqtt";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.secrets = std::make_shared<core::secret_store>(secrets);
    ctx.fail = [this](const std::string& reason) {
      std::lock_guard guard{mutex};
      failure = reason;
    };
    ctx.connected = [this] { connected = true; };
    return core::start_source(mqtt::make_source_factory(), ctx);
  }

  mqtt::event_spec spec() {
    mqtt::event_spec s;
    s.url = broker->url();
    s.topic = "secure/#";
    s.client_id = "ganglion-tls";
    s.connection_backoff = dsl::backoff{};
    s.connection_backoff->duration_ns = 50'000'000;
    s.connection_backoff->steps = 2;
    return s;
  }

  std::string failed() {
    std::lock_guard guard{mutex};
    return failure;
  }

  std::string secrets = test::temp_dir();
  std::uint16_t plain_port = 0;
  std::unique_ptr<test::mosquitto_server> broker;
  dsl::event_source es;
  std::shared_ptr<test::counting_bus> bus = std::make_shared<test::counting_bus>();
  std::mutex mutex;
  std::string failure;
  std::atomic<bool> connected{false};
};

TEST_F(mqtt_tls, subscribes_over_tls_with_the_ca_secret) {
  auto s = spec();
  dsl::tls_config tls;
  tls.ca_cert_secret = dsl::secret_key_selector{"tls", "cert.pem"};
  s.tls = tls;
  ASSERT_EQ(s.url.rfind("ssl://", 0), 0u) << s.url;
  auto source = start(s);
  ASSERT_TRUE(test::eventually([&] { return connected.load(); }, 10s)) << failed();
  test::mqtt_publisher client{plain_port};
  ASSERT_TRUE(client.publish("secure/a", "x"));
  EXPECT_TRUE(bus->wait_for(1));
}

TEST_F(mqtt_tls, insecure_skip_verify_connects_without_the_ca) {
  auto s = spec();
  dsl::tls_config tls;
  tls.insecure_skip_verify = true;
  s.tls = tls;
  auto source = start(s);
  ASSERT_TRUE(test::eventually([&] { return connected.load(); }, 10s)) << failed();
}

TEST_F(mqtt_tls, an_untrusted_server_certificate_is_refused) {
  auto s = spec(); // no tls: the system's roots, which do not hold the test certificate
  auto source = start(s);
  ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }, 10s));
  EXPECT_NE(failed().find("after 2 attempt(s)"), std::string::npos) << failed();
  EXPECT_NE(failed().find("certificate verify failed"), std::string::npos) << failed();
  EXPECT_FALSE(connected.load());
}

TEST_F(mqtt_tls, a_certificate_for_another_host_is_refused) {
  auto s = spec();
  s.url = "ssl://localhost:" + std::to_string(broker->port()); // the certificate names 127.0.0.1
  dsl::tls_config tls;
  tls.ca_cert_secret = dsl::secret_key_selector{"tls", "cert.pem"};
  s.tls = tls;
  auto source = start(s);
  ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }, 10s));
  EXPECT_FALSE(connected.load());
}
