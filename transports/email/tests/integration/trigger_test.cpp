// The email trigger executor end to end against a real SMTP server (aiosmtpd, STARTTLS + AUTH).

#include <future>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ganglion/core/metrics.hpp"
#include "ganglion/core/parameter_step.hpp"
#include "ganglion/email/spec.hpp"
#include "ganglion/email/transport.hpp"
#include "http_sink.hpp"
#include "kind_manifests.hpp"
#include "smtp_server.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

class email_trigger_test : public ::testing::Test {
protected:
  void SetUp() override {
    secrets_dir = test::temp_dir();
    test::write_file(secrets_dir + "/smtp/password", "s3cret");
    spec.host = "127.0.0.1";
    spec.port = server.port();
    spec.username = "mailer";
    spec.smtp_password = dsl::secret_key_selector{"smtp", "password"};
    spec.to = {"ada@example.com"};
    spec.from = "Argo Bot <bot@example.com>";
    spec.subject = "Hello There";
    spec.body = "Hi,\n\n\tHello There.\n";
    auto e = std::make_shared<core::event>();
    e->id = "0123456789abcdef0123456789abcdef";
    e->source = "webhook";
    e->type = "webhook";
    e->subject = "example";
    e->time = "2024-01-01T00:00:00.000000000Z";
    e->data = R"({"body":{"to":"grace@example.org","name":"Grace\r\nBcc: evil@example.com"}})";
    invocation.events["dep"] = e;
  }

  json spec_json() const {
    return json{{"host", spec.host}, {"port", spec.port}, {"username", spec.username},
                {"to", spec.to},     {"from", spec.from}, {"subject", spec.subject},
                {"body", spec.body}};
  }

  std::unique_ptr<core::trigger_executor> create() {
    trig.template_.name = "mail";
    trig.template_.actions = {test::make_action("email", spec, spec_json())};
    core::trigger_context ctx;
    ctx.sensor_name = "sensor";
    ctx.manifest = &trig;
    ctx.secrets = std::make_shared<core::secret_store>(secrets_dir);
    ctx.metrics = &metrics;
    return core::create_trigger_executor(factory, ctx);
  }

  core::trigger_outcome run(core::trigger_executor& executor) {
    auto done = std::make_shared<std::promise<core::trigger_outcome>>();
    auto result = done->get_future();
    executor.execute(invocation,
                     [done](core::trigger_outcome o) { done->set_value(std::move(o)); });
    EXPECT_EQ(result.wait_for(60s), std::future_status::ready);
    return result.get();
  }

  static dsl::trigger_parameter from_data(const std::string& key, const std::string& dest) {
    dsl::trigger_parameter p;
    p.src.dependency_name = "dep";
    p.src.data_key = key;
    p.dest = dest;
    return p;
  }

  test::smtp_server server;
  core::trigger_factory factory = email::make_trigger_factory({server.ca_file()});
  core::metrics_registry metrics;
  test::action_under_test<email::trigger_spec> spec;
  dsl::trigger trig;
  core::trigger_invocation invocation;
  std::string secrets_dir;
};

TEST_F(email_trigger_test, sends_over_starttls_with_auth) {
  auto executor = create();
  auto outcome = run(*executor);
  ASSERT_TRUE(outcome.ok) << outcome.error << "\n" << server.output();
  EXPECT_EQ(outcome.detail, "1 of 1 sent");
  ASSERT_TRUE(server.wait_for(1, 10s));
  auto m = server.messages().at(0);
  EXPECT_TRUE(m.tls);
  EXPECT_EQ(m.login, "mailer");
  EXPECT_EQ(m.mail_from, "bot@example.com");
  EXPECT_EQ(m.rcpt_tos, std::vector<std::string>{"ada@example.com"});
  auto body_at = m.data.find("\r\n\r\n");
  ASSERT_NE(body_at, std::string::npos) << m.data;
  auto headers = m.data.substr(0, body_at + 2);
  EXPECT_EQ(headers.find("Mime-Version: 1.0\r\nDate: "), 0u) << headers;
  EXPECT_NE(headers.find("\r\nFrom: Argo Bot <bot@example.com>\r\n"), std::string::npos);
  EXPECT_NE(headers.find("\r\nTo: ada@example.com\r\n"), std::string::npos);
  EXPECT_NE(headers.find("\r\nSubject: Hello There\r\n"), std::string::npos);
  EXPECT_NE(headers.find("\r\nContent-Type: text/plain; charset=UTF-8\r\n"), std::string::npos);
  EXPECT_NE(headers.find("\r\nContent-Transfer-Encoding: quoted-printable\r\n"), std::string::npos);
  EXPECT_EQ(m.data.substr(body_at + 4), "Hi,\r\n\r\n\tHello There.\r\n");
}

TEST_F(email_trigger_test, one_message_per_recipient_and_invalid_ones_fail) {
  spec.to = {"ada@example.com", "not-an-address", "bob@example.net"};
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.error, "to emailId can't be invalid not-an-address");
  EXPECT_EQ(outcome.detail, "2 of 3 sent");
  ASSERT_TRUE(server.wait_for(2, 10s));
  auto messages = server.messages();
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0].rcpt_tos, std::vector<std::string>{"ada@example.com"});
  EXPECT_EQ(messages[1].rcpt_tos, std::vector<std::string>{"bob@example.net"});
  EXPECT_NE(messages[1].data.find("\r\nTo: bob@example.net\r\n"), std::string::npos);
}

TEST_F(email_trigger_test, template_parameters_fill_to_and_body_without_header_injection) {
  spec.to = {};
  spec.body = "";
  trig.parameters = {from_data("body.to", "email.to.-1"), from_data("body.name", "email.subject")};
  auto body = from_data("body.name", "email.body");
  body.src.data_key.clear();
  body.src.data_template = "Hi {{.Input.body.name}}, bye.";
  trig.parameters.push_back(body);
  auto executor = create();
  auto outcome = run(*executor);
  ASSERT_TRUE(outcome.ok) << outcome.error;
  ASSERT_TRUE(server.wait_for(1, 10s));
  auto m = server.messages().at(0);
  EXPECT_EQ(m.rcpt_tos, std::vector<std::string>{"grace@example.org"});
  EXPECT_NE(m.data.find("\r\nSubject: =?UTF-8?q?Grace=0D=0ABcc:_evil@example.com?=\r\n"),
            std::string::npos)
    << m.data;
  EXPECT_EQ(m.data.substr(0, m.data.find("\r\n\r\n")).find("Bcc: "), std::string::npos) << m.data;
  EXPECT_NE(m.data.find("\r\n\r\nHi Grace\r\nBcc: evil@example.com, bye."), std::string::npos)
    << m.data;
}

TEST_F(email_trigger_test, a_wrong_password_fails_the_execution) {
  test::write_file(secrets_dir + "/smtp/password", "wrong");
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("failed to send emails to emailId ada@example.com"),
            std::string::npos)
    << outcome.error;
  EXPECT_NE(outcome.error.find("535"), std::string::npos) << outcome.error;
  EXPECT_TRUE(server.messages().empty());
}

TEST_F(email_trigger_test, an_untrusted_certificate_fails) {
  factory = email::make_trigger_factory({});
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_TRUE(server.messages().empty());
}

TEST_F(email_trigger_test, an_unreachable_server_fails) {
  spec.port = test::free_port();
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_NE(outcome.error.find("failed to send emails to emailId ada@example.com"),
            std::string::npos);
}

TEST_F(email_trigger_test, argos_empty_field_checks_fail_without_sending) {
  spec.subject = "";
  EXPECT_THROW(create(), core::trigger_error);
  spec.subject = "s";
  spec.to = {};
  EXPECT_THROW(create(), core::trigger_error);
  // With parameters the checks run per execution, on the template they produced.
  trig.parameters = {from_data("body.absent", "email.from")};
  trig.parameters[0].src.value = "bot@example.com";
  auto executor = create();
  auto outcome = run(*executor);
  EXPECT_FALSE(outcome.ok);
  EXPECT_EQ(outcome.error, "to can't be empty");
  EXPECT_TRUE(server.messages().empty());
}

} // namespace
