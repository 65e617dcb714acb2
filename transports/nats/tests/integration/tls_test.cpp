// The nats source and trigger against a nats-server that requires TLS (a self-signed
// certificate made by `openssl`, trusted through a CA secret).

#include <future>

#include <gtest/gtest.h>
#include <nats/nats.h>

#include "counting_bus.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/nats/spec.hpp"
#include "ganglion/nats/transport.hpp"
#include "kind_manifests.hpp"
#include "server_process.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

class nats_tls : public ::testing::Test {
protected:
  void SetUp() override {
    const auto dir = secrets + "/tls";
    test::write_self_signed_certificate(dir);
    ca_file = dir + "/cert.pem";
    test::nats_server_options options;
    options.jetstream = false;
    options.extra_args = {"--tls", "--tlscert", dir + "/cert.pem", "--tlskey", dir + "/key.pem"};
    server = std::make_unique<test::nats_server>(options);
  }

  std::unique_ptr<core::source> start_source(const dsl::tls_config& tls) {
    es.metadata.name = "secure";
    test::event_under_test<nats::event_spec> e;
    e.url = server->url();
    e.subject = "orders";
    e.tls = tls;
    test::put_event(es, "nats", "orders", e);
    core::source_context ctx;
    ctx.event_source_name = "secure";
    ctx.event_name = "orders";
    ctx.type = "nats";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.secrets = std::make_shared<core::secret_store>(secrets);
    return nats::make_source_factory()(ctx);
  }

  /// A plain cnats client trusting the test certificate.
  natsConnection* raw_connect() {
    natsOptions* opts = nullptr;
    natsOptions_Create(&opts);
    natsOptions_SetURL(opts, server->url().c_str());
    natsOptions_SetSecure(opts, true);
    natsOptions_LoadCATrustedCertificates(opts, ca_file.c_str());
    natsConnection* nc = nullptr;
    EXPECT_EQ(natsConnection_Connect(&nc, opts), NATS_OK);
    natsOptions_Destroy(opts);
    return nc;
  }

  static dsl::tls_config trusting_ca() {
    dsl::tls_config tls;
    tls.ca_cert_secret = dsl::secret_key_selector{"tls", "cert.pem"};
    return tls;
  }

  std::string secrets = test::temp_dir();
  std::string ca_file;
  std::unique_ptr<test::nats_server> server;
  dsl::event_source es;
  std::shared_ptr<test::counting_bus> bus = std::make_shared<test::counting_bus>();
};

TEST_F(nats_tls, source_trusts_the_server_through_the_ca_secret) {
  auto source = start_source(trusting_ca());
  auto* nc = raw_connect();
  ASSERT_EQ(natsConnection_PublishString(nc, "orders", "{}"), NATS_OK);
  ASSERT_EQ(natsConnection_FlushTimeout(nc, 2000), NATS_OK);
  EXPECT_TRUE(bus->wait_for(1));
  natsConnection_Destroy(nc);
}

TEST_F(nats_tls, an_untrusted_server_certificate_is_refused) {
  dsl::tls_config system_roots;
  system_roots.enabled = true;
  try {
    start_source(system_roots);
    FAIL() << "expected a source_error";
  } catch (const core::source_error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("cannot connect to " + server->url()), std::string::npos) << what;
    EXPECT_NE(what.find("certificate"), std::string::npos) << what;
  }
}

TEST_F(nats_tls, trigger_publishes_over_tls) {
  auto* nc = raw_connect();
  natsSubscription* sub = nullptr;
  ASSERT_EQ(natsConnection_SubscribeSync(&sub, nc, "alerts"), NATS_OK);
  ASSERT_EQ(natsConnection_FlushTimeout(nc, 2000), NATS_OK);

  dsl::trigger trig;
  trig.template_.name = "alert";
  test::action_under_test<nats::trigger_spec> spec;
  spec.url = server->url();
  spec.subject = "alerts";
  dsl::trigger_parameter p;
  p.src.dependency_name = "order";
  p.src.data_key = "text";
  p.dest = "text";
  spec.payload = {p};
  spec.tls = trusting_ca();
  trig.template_.actions = {test::make_action("nats", spec, {{"url", spec.url}, {"subject", spec.subject}})};
  core::trigger_context ctx;
  ctx.sensor_name = "alerts";
  ctx.manifest = &trig;
  ctx.secrets = std::make_shared<core::secret_store>(secrets);
  auto executor = core::create_trigger_executor(nats::make_trigger_factory(), ctx);

  core::trigger_invocation invocation;
  auto e = std::make_shared<core::event>();
  e->data = R"({"text":"hello"})";
  invocation.events["order"] = e;
  std::promise<core::trigger_outcome> done;
  executor->execute(invocation, [&](core::trigger_outcome o) { done.set_value(o); });
  auto outcome = done.get_future().get();
  EXPECT_TRUE(outcome.ok) << outcome.error;

  natsMsg* msg = nullptr;
  ASSERT_EQ(natsSubscription_NextMsg(&msg, sub, 5000), NATS_OK);
  EXPECT_EQ(std::string(natsMsg_GetData(msg)), R"({"text":"hello"})");
  natsMsg_Destroy(msg);
  natsSubscription_Destroy(sub);
  natsConnection_Destroy(nc);
}

} // namespace
