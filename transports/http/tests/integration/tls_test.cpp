// HTTPS: a TLS webhook (certificate and key from secrets) called by the TLS-verifying client.

#include <fstream>
#include <future>
#include <sstream>

#include <gtest/gtest.h>

#include "ganglion/http/client.hpp"
#include "ganglion/http/spec.hpp"
#include "ganglion/http/webhook.hpp"
#include "kind_manifests.hpp"
#include "server_process.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

std::string slurp(const std::string& path) {
  std::ifstream in{path};
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

/// A bus that accepts everything and counts it.
class counting_bus : public core::bus_publisher {
public:
  void publish(core::event&&, core::publish_done done) override {
    ++count;
    done(core::publish_status::accepted, {});
  }
  std::atomic<int> count{0};
};

http::client_response send(http::client& c, http::client_request r) {
  std::promise<http::client_response> done;
  auto result = done.get_future();
  EXPECT_TRUE(
    c.submit(std::move(r), [&](http::client_response res) { done.set_value(std::move(res)); }));
  return result.get();
}

class http_tls : public ::testing::Test {
protected:
  void SetUp() override {
    secrets = test::temp_dir();
    const auto dir = secrets + "/tls";
    test::write_self_signed_certificate(dir);
    certificate = slurp(dir + "/cert.pem");

    port = test::free_port();
    es.metadata.name = "secure";
    hook.endpoint = "/hook";
    hook.method = "POST";
    hook.port = std::to_string(port);
    hook.server_cert_secret = dsl::secret_key_selector{"tls", "cert.pem"};
    hook.server_key_secret = dsl::secret_key_selector{"tls", "key.pem"};
  }

  std::unique_ptr<core::source> start() {
    test::put_event(es, "webhook", "hook", hook);
    core::source_context ctx;
    ctx.event_source_name = "secure";
    ctx.event_name = "hook";
    ctx.type = "webhook";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.secrets = std::make_shared<core::secret_store>(secrets);
    return http::make_webhook_source_factory(servers, "127.0.0.1")(ctx);
  }

  http::client_request post(const std::string& scheme) const {
    http::client_request r;
    r.url = scheme + "://127.0.0.1:" + std::to_string(port) + "/hook";
    r.headers = {{"Content-Type", "application/json"}};
    r.body = "{}";
    r.timeout = 5s;
    return r;
  }

  std::string secrets;
  std::string certificate;
  std::uint16_t port = 0;
  dsl::event_source es;
  test::event_under_test<http::webhook_spec> hook;
  std::shared_ptr<counting_bus> bus = std::make_shared<counting_bus>();
  std::shared_ptr<http::server_pool> servers = std::make_shared<http::server_pool>();
};

TEST_F(http_tls, webhook_serves_https_with_the_secret_certificate) {
  auto source = start();
  http::client c;
  auto r = post("https");
  r.tls = http::client_tls{certificate, {}, {}, false};
  auto res = send(c, r);
  EXPECT_EQ(res.status, 200) << res.error;
  EXPECT_EQ(res.body, "success");
  EXPECT_EQ(bus->count, 1);
}

TEST_F(http_tls, client_verifies_the_server_certificate) {
  auto source = start();
  http::client c;
  auto untrusted = send(c, post("https"));
  EXPECT_EQ(untrusted.status, 0);
  EXPECT_FALSE(untrusted.error.empty());
  auto r = post("https");
  r.tls = http::client_tls{{}, {}, {}, true};
  EXPECT_EQ(send(c, r).status, 200);
}

TEST_F(http_tls, plain_http_to_a_tls_port_fails) {
  auto source = start();
  http::client c;
  EXPECT_EQ(send(c, post("http")).status, 0);
  EXPECT_EQ(bus->count, 0);
}

TEST_F(http_tls, one_of_cert_and_key_is_refused) {
  hook.server_key_secret.reset();
  EXPECT_THROW(start(), core::source_error);
}

TEST_F(http_tls, invalid_certificate_is_refused) {
  test::write_file(secrets + "/tls/cert.pem", "not a certificate");
  try {
    start();
    FAIL() << "expected source_error";
  } catch (const core::source_error& e) {
    EXPECT_NE(std::string(e.what()).find("certificate"), std::string::npos) << e.what();
  }
}

} // namespace
