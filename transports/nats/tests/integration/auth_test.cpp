// The nats source logging in to a real nats-server: user/password, token and nkey from secrets.

#include <gtest/gtest.h>
#include <nats/nats.h>

#include "counting_bus.hpp"
#include "ganglion/nats/spec.hpp"
#include "ganglion/nats/transport.hpp"
#include "kind_manifests.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// Publishes one message with a plain cnats client logged in through `url`.
bool publish(const std::string& url, const std::string& subject) {
  natsConnection* nc = nullptr;
  if (natsConnection_ConnectTo(&nc, url.c_str()) != NATS_OK)
    return false;
  bool ok = natsConnection_PublishString(nc, subject.c_str(), "x") == NATS_OK &&
            natsConnection_FlushTimeout(nc, 2000) == NATS_OK;
  natsConnection_Destroy(nc);
  return ok;
}

class nats_auth : public ::testing::Test {
protected:
  /// Starts source `orders/created` on `url` with `auth`.
  std::unique_ptr<core::source> start(const std::string& url, const nats::auth_spec& auth) {
    es.metadata.name = "orders";
    test::event_under_test<nats::event_spec> e;
    e.url = url;
    e.subject = "orders.created";
    e.auth = auth;
    test::put_event(es, "nats", "created", e);
    core::source_context ctx;
    ctx.event_source_name = "orders";
    ctx.event_name = "created";
    ctx.type = "nats";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.secrets = std::make_shared<core::secret_store>(secrets);
    return nats::make_source_factory()(ctx);
  }

  dsl::event_source es;
  std::shared_ptr<test::counting_bus> bus = std::make_shared<test::counting_bus>();
  std::string secrets = test::temp_dir();
};

/// Writes secret `name/key`.
void put_secret(const std::string& dir, const std::string& name, const std::string& key,
                const std::string& value) {
  test::write_file(dir + "/" + name + "/" + key, value + "\n");
}

/// A server without JetStream; `user`/`password` or `token` when given.
test::nats_server_options plain_server(const std::string& user, const std::string& password,
                                       const std::string& token = {}) {
  test::nats_server_options options;
  options.jetstream = false;
  options.user = user;
  options.password = password;
  options.token = token;
  return options;
}

std::string with_login(const test::nats_server& server, const std::string& login) {
  return "nats://" + login + "@127.0.0.1:" + std::to_string(server.port());
}

TEST_F(nats_auth, user_and_password_from_secrets) {
  test::nats_server server{plain_server("ganglion", "s3cret")};
  put_secret(secrets, "nats-login", "user", "ganglion");
  put_secret(secrets, "nats-login", "password", "s3cret");
  nats::auth_spec auth;
  auth.basic = dsl::basic_auth{dsl::secret_key_selector{"nats-login", "user"},
                               dsl::secret_key_selector{"nats-login", "password"}};
  auto source = start(server.url(), auth);
  ASSERT_TRUE(publish(with_login(server, "ganglion:s3cret"), "orders.created"));
  EXPECT_TRUE(bus->wait_for(1));
}

TEST_F(nats_auth, wrong_password_is_refused_with_a_clear_error) {
  test::nats_server server{plain_server("ganglion", "s3cret")};
  put_secret(secrets, "nats-login", "user", "ganglion");
  put_secret(secrets, "nats-login", "password", "guess");
  nats::auth_spec auth;
  auth.basic = dsl::basic_auth{dsl::secret_key_selector{"nats-login", "user"},
                               dsl::secret_key_selector{"nats-login", "password"}};
  try {
    start(server.url(), auth);
    FAIL() << "expected a source_error";
  } catch (const core::source_error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("nats source orders/created"), std::string::npos) << what;
    EXPECT_NE(what.find("uthorization"), std::string::npos) << what;
  }
}

TEST_F(nats_auth, missing_secret_names_the_file) {
  test::nats_server server{false};
  nats::auth_spec auth;
  auth.token = dsl::secret_key_selector{"nats-token", "token"};
  try {
    start(server.url(), auth);
    FAIL() << "expected a source_error";
  } catch (const core::source_error& e) {
    std::string what = e.what();
    EXPECT_NE(what.find("nats.auth.token"), std::string::npos) << what;
    EXPECT_NE(what.find("nats-token"), std::string::npos) << what;
  }
}

TEST_F(nats_auth, token_from_secret) {
  test::nats_server server{plain_server({}, {}, "t0ken")};
  put_secret(secrets, "nats-token", "token", "t0ken");
  nats::auth_spec auth;
  auth.token = dsl::secret_key_selector{"nats-token", "token"};
  auto source = start(server.url(), auth);
  ASSERT_TRUE(publish(with_login(server, "t0ken"), "orders.created"));
  EXPECT_TRUE(bus->wait_for(1));
}

TEST_F(nats_auth, nkey_seed_from_secret) {
  // The key pair of the NATS documentation (nk -gen user -pubout).
  auto options = plain_server({}, {});
  options.config = "authorization { users: [ "
                   "{ nkey: UDXU4RCSJNZOIQHZNWXHXORDPRTGNJAHAHFRGZNEEJCPQTT2M7NLCNF4 }, "
                   "{ user: test, password: test } ] }\n";
  test::nats_server server{options};
  put_secret(secrets, "nats-nkey", "seed",
             "SUACSSL3UAHUDXKFSNVUZRF5UHPMWZ6BFDTJ7M6USDXIEDNPPQYYYCU3VY");
  nats::auth_spec auth;
  auth.nkey = dsl::secret_key_selector{"nats-nkey", "seed"};
  auto source = start(server.url(), auth);
  ASSERT_TRUE(publish(with_login(server, "test:test"), "orders.created"));
  EXPECT_TRUE(bus->wait_for(1));
}

} // namespace
