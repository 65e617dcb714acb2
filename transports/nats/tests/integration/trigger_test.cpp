// The nats trigger against a real nats-server; a raw cnats subscriber checks what arrives.

#include <future>

#include <gtest/gtest.h>
#include <nats/nats.h>

#include "ganglion/core/parameter_step.hpp"
#include "ganglion/nats/spec.hpp"
#include "ganglion/nats/transport.hpp"
#include "kind_manifests.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// A synchronous subscription of a plain cnats client.
class raw_subscriber {
public:
  raw_subscriber(const std::string& url, const std::string& subject) {
    EXPECT_EQ(natsConnection_ConnectTo(&nc_, url.c_str()), NATS_OK);
    EXPECT_EQ(natsConnection_SubscribeSync(&sub_, nc_, subject.c_str()), NATS_OK);
    EXPECT_EQ(natsConnection_FlushTimeout(nc_, 2000), NATS_OK);
  }
  ~raw_subscriber() {
    natsSubscription_Destroy(sub_);
    natsConnection_Destroy(nc_);
  }

  /// The next message as (subject, payload); nullopt after `timeout`.
  std::optional<std::pair<std::string, std::string>> next(std::chrono::milliseconds timeout = 5s) {
    natsMsg* msg = nullptr;
    if (natsSubscription_NextMsg(&msg, sub_, timeout.count()) != NATS_OK)
      return std::nullopt;
    std::pair<std::string, std::string> out{
      natsMsg_GetSubject(msg),
      std::string(natsMsg_GetData(msg), static_cast<std::size_t>(natsMsg_GetDataLength(msg)))};
    natsMsg_Destroy(msg);
    return out;
  }

private:
  natsConnection* nc_ = nullptr;
  natsSubscription* sub_ = nullptr;
};

core::event_ptr order_event(const std::string& data) {
  auto e = std::make_shared<core::event>();
  e->id = core::new_event_id();
  e->source = "orders";
  e->type = "nats";
  e->subject = "created";
  e->time = core::now_rfc3339();
  e->data = data;
  return e;
}

dsl::trigger_parameter from_data(const std::string& key, const std::string& dest) {
  dsl::trigger_parameter p;
  p.src.dependency_name = "order";
  p.src.data_key = key;
  p.dest = dest;
  return p;
}

class nats_trigger_test : public ::testing::Test {
protected:
  void SetUp() override {
    trig.template_.name = "notify";
    spec.subject = "orders.notify";
    spec.payload = {from_data("body.id", "id"), from_data("body.to", "to")};
    invocation.events["order"] = order_event(R"({"body":{"id":7,"to":"orders.shipped"}})");
  }

  std::unique_ptr<core::trigger_executor> create(const std::string& url) {
    spec.url = url;
    trig.template_.actions = {
      test::make_action("nats", spec, {{"url", spec.url}, {"subject", spec.subject}})};
    core::trigger_context ctx;
    ctx.sensor_name = "billing";
    ctx.manifest = &trig;
    ctx.secrets = std::make_shared<core::secret_store>(secrets);
    return core::create_trigger_executor(nats::make_trigger_factory(opts), ctx);
  }

  /// Runs one execution and waits for its outcome.
  core::trigger_outcome run(core::trigger_executor& executor) {
    auto done = std::make_shared<std::promise<core::trigger_outcome>>();
    auto outcome = done->get_future();
    executor.execute(invocation, [done](core::trigger_outcome o) { done->set_value(o); });
    EXPECT_EQ(outcome.wait_for(15s), std::future_status::ready);
    return outcome.get();
  }

  dsl::trigger trig;
  test::action_under_test<nats::trigger_spec> spec;
  core::trigger_invocation invocation;
  nats::options opts;
  std::string secrets = test::temp_dir();
};

TEST_F(nats_trigger_test, publishes_the_payload_once_the_server_has_it) {
  test::nats_server server{false};
  raw_subscriber subscriber{server.url(), "orders.>"};
  auto executor = create(server.url());
  auto outcome = run(*executor);
  EXPECT_TRUE(outcome.ok) << outcome.error;
  EXPECT_EQ(outcome.detail, "published to orders.notify");
  auto got = subscriber.next();
  ASSERT_TRUE(got);
  EXPECT_EQ(got->first, "orders.notify");
  EXPECT_EQ(got->second, R"({"id":"7","to":"orders.shipped"})");
}

TEST_F(nats_trigger_test, nats_parameters_change_the_subject) {
  test::nats_server server{false};
  raw_subscriber subscriber{server.url(), "orders.>"};
  spec.parameters = {from_data("body.to", "subject")};
  auto executor = create(server.url());
  EXPECT_TRUE(run(*executor).ok);
  auto got = subscriber.next();
  ASSERT_TRUE(got);
  EXPECT_EQ(got->first, "orders.shipped");
}

TEST_F(nats_trigger_test, template_parameters_change_the_subject) {
  test::nats_server server{false};
  raw_subscriber subscriber{server.url(), "orders.>"};
  trig.parameters = {from_data("body.to", "nats.subject")};
  auto executor = create(server.url());
  EXPECT_TRUE(run(*executor).ok);
  auto got = subscriber.next();
  ASSERT_TRUE(got);
  EXPECT_EQ(got->first, "orders.shipped");
}

TEST_F(nats_trigger_test, stopped_server_fails_the_execution_quickly) {
  test::nats_server server{false};
  auto executor = create(server.url());
  server.stop();
  auto started = std::chrono::steady_clock::now();
  auto outcome = run(*executor);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 5s);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("not connected to the NATS server at " + server.url()),
            std::string::npos)
    << outcome.error;

  // The connection keeps retrying: once the server is back, executions succeed again.
  server.start();
  raw_subscriber subscriber{server.url(), "orders.notify"};
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (!run(*executor).ok)
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "no success after the restart";
  EXPECT_TRUE(subscriber.next());
}

TEST_F(nats_trigger_test, execute_does_not_block_the_caller) {
  test::nats_server server{false};
  server.stop();
  auto executor = create(server.url());
  std::promise<core::trigger_outcome> done;
  auto started = std::chrono::steady_clock::now();
  executor->execute(invocation, [&](core::trigger_outcome o) { done.set_value(o); });
  EXPECT_LT(std::chrono::steady_clock::now() - started, 200ms);
  auto outcome = done.get_future();
  ASSERT_EQ(outcome.wait_for(10s), std::future_status::ready);
  EXPECT_FALSE(outcome.get().ok);
}

TEST_F(nats_trigger_test, wrong_password_fails_with_a_clear_error) {
  test::nats_server_options login;
  login.jetstream = false;
  login.user = "ganglion";
  login.password = "s3cret";
  test::nats_server server{login};
  test::write_file(secrets + "/login/user", "ganglion\n");
  test::write_file(secrets + "/login/password", "guess\n");
  spec.auth.emplace();
  spec.auth->basic = dsl::basic_auth{dsl::secret_key_selector{"login", "user"},
                                                     dsl::secret_key_selector{"login", "password"}};
  auto executor = create(server.url());
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("uthorization"), std::string::npos) << outcome.error;

  test::write_file(secrets + "/login/password", "s3cret\n");
  auto fixed = create(server.url());
  EXPECT_TRUE(run(*fixed).ok);
}

TEST_F(nats_trigger_test, a_trigger_without_payload_is_refused) {
  spec.payload.clear();
  try {
    create("nats://127.0.0.1:1");
    FAIL() << "expected a trigger_error";
  } catch (const core::trigger_error& e) {
    EXPECT_NE(std::string(e.what()).find("nats.payload"), std::string::npos) << e.what();
  }
}

TEST_F(nats_trigger_test, preview_shows_subject_and_payload_without_connecting) {
  auto executor = create("nats://user:pw@127.0.0.1:1");
  EXPECT_EQ(executor->preview(invocation),
            "PUB orders.notify (NATS nats://***@127.0.0.1:1)\n\n"
            R"({"id":"7","to":"orders.shipped"})");
}

} // namespace
