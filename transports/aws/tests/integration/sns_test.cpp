// The sns source against a stand-in of SNS (tests/support/aws/sns_api.hpp: the Query API with
// every SigV4 signature verified, and deliveries signed as SNS signs them with a certificate it
// serves over HTTPS): Argo's Subscribe, ConfirmSubscription and Unsubscribe requests, Argo's
// event data, every signature verified with validateSignature (tampered, foreign-host and
// unsigned deliveries refused), and a subscription refused or unreachable.

#include <gtest/gtest.h>

#include <algorithm>

#include "aws/aws_server.hpp"
#include "aws/sns_api.hpp"
#include "eventually.hpp"
#include "files.hpp"
#include "ganglion/aws/spec.hpp"
#include "ganglion/aws/transport.hpp"
#include "ganglion/http/hook_registrar.hpp"
#include "http_request.hpp"
#include "http_sink.hpp"
#include "kind_manifests.hpp"
#include "push_source_context.hpp"
#include "recording_bus.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

class sns_source : public ::testing::Test {
protected:
  void SetUp() override {
    es.metadata.name = "aws-sns";
    write_keys("AKIAGANGLIONTEST", "ganglion-test-secret-key");
    rt = test::loopback_runtime();
    opts.sns_cert_hosts = {"127.0.0.1"};
    opts.sns_cert_ca_pem = api->certificate();
  }

  void write_keys(const std::string& access, const std::string& secret) {
    test::write_file(secrets + "/aws-secret/accesskey", access);
    test::write_file(secrets + "/aws-secret/secretkey", secret);
  }

  /// The corpus example's event, on a free port and the stand-in.
  test::event_under_test<aws::sns_spec>& add(bool validate_signature = false) {
    auto& e = events["example"];
    e.topic_arn = topic;
    e.region = "us-east-1";
    e.webhook.endpoint = "/example";
    e.webhook.port = std::to_string(port);
    e.webhook.method = "POST";
    e.webhook.url = "http://127.0.0.1:" + std::to_string(port);
    e.access_key = dsl::secret_key_selector{"aws-secret", "accesskey"};
    e.secret_key = dsl::secret_key_selector{"aws-secret", "secretkey"};
    e.endpoint = api->endpoint();
    e.validate_signature = validate_signature;
    return e;
  }

  std::unique_ptr<core::source> start() {
    for (const auto& [event, spec] : events)
      test::put_event(es, "sns", event, spec);
    return aws::make_sns_source_factory(rt, opts)(
      test::push_source_context(es, "sns", "example", bus, &metrics, secrets, failures));
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port) + "/example"; }

  /// Waits for the subscription SNS confirmed.
  bool confirmed() const {
    return test::eventually([&] {
      auto subs = api->subscriptions();
      return subs.size() == 1 && subs[0].confirmed && subs[0].confirmation_status == 200;
    });
  }

  long rejected(const std::string& reason) const {
    auto series = R"(ganglion_events_rejected_total{eventsource="aws-sns",event="example",)"
                  R"(reason=")"
                  + reason + "\"}";
    auto text = metrics.render();
    auto at = text.find(series + " ");
    return at == std::string::npos ? 0 : std::stol(text.substr(at + series.size() + 1));
  }

  std::unique_ptr<test::aws::sns_api> api = std::make_unique<test::aws::sns_api>();
  std::string topic = api->topic_arn("orders");
  std::uint16_t port = test::free_port();
  std::string secrets = test::temp_dir();
  std::shared_ptr<http::runtime> rt;
  aws::options opts = [] {
    aws::options o;
    o.request_timeout = 5000ms;
    o.min_retry_delay = 5ms;
    o.max_retry_delay = 20ms;
    return o;
  }();
  dsl::event_source es;
  std::map<std::string, test::event_under_test<aws::sns_spec>> events;
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  test::recorded_failures failures;
};

} // namespace

TEST_F(sns_source, subscribes_confirms_publishes_argos_data_and_unsubscribes_at_stop) {
  add().metadata = {{"team", "ops"}};
  auto source = start();
  ASSERT_TRUE(confirmed()) << api->subscriptions().size();
  auto subscription = api->subscriptions()[0];
  EXPECT_EQ(subscription.endpoint, url());
  EXPECT_EQ(subscription.protocol, "http");
  auto calls = api->requests();
  ASSERT_EQ(calls.size(), 2u);
  EXPECT_EQ(calls[0].action, "Subscribe");
  EXPECT_EQ(calls[0].body, "Action=Subscribe&Endpoint=http%3A%2F%2F127.0.0.1%3A"
                             + std::to_string(port)
                             + "%2Fexample&Protocol=http&TopicArn=arn%3Aaws%3Asns%3Aus-east-1%3A"
                               "000000000000%3Aorders&Version=2010-03-31");
  EXPECT_EQ(calls[1].action, "ConfirmSubscription");
  EXPECT_EQ(calls[1].body, "Action=ConfirmSubscription&Token=" + subscription.token
                             + "&TopicArn=arn%3Aaws%3Asns%3Aus-east-1%3A000000000000%3Aorders"
                               "&Version=2010-03-31");
  EXPECT_TRUE(bus->events().empty()); // a confirmation is no event

  auto delivered = api->publish(topic, R"({"order":42})", "new order");
  EXPECT_EQ(delivered, std::vector<long>{200});
  auto got = bus->wait_for(1, 10s);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, "sns");
  EXPECT_EQ(got[0].subject, "example");
  const auto& data = got[0].data;
  auto body = api->notification(topic, R"({"order":42})", "new order");
  auto body_at = data.find(R"(,"body":)");
  ASSERT_NE(body_at, std::string::npos) << data;
  EXPECT_EQ(data.substr(0, 10), R"({"header":)");
  EXPECT_NE(data.find(R"("X-Amz-Sns-Message-Type":["Notification"])"), std::string::npos);
  EXPECT_NE(data.find(R"("X-Amz-Sns-Topic-Arn":[")" + topic + "\"]"), std::string::npos);
  auto after_body = data.substr(body_at + 8);
  // The body as SNS sent it (a signature and timestamp of its own each time: compare fields).
  auto sent = nlohmann::json::parse(after_body.substr(0, after_body.rfind(R"(,"metadata":)")));
  EXPECT_EQ(sent["Message"], R"({"order":42})");
  EXPECT_EQ(sent["Subject"], "new order");
  EXPECT_EQ(sent["TopicArn"], topic);
  EXPECT_EQ(after_body.substr(after_body.rfind(R"(,"metadata":)")),
            R"(,"metadata":{"team":"ops"}})");
  EXPECT_EQ(nlohmann::json::parse(body).size(), sent.size());

  source.reset();
  calls = api->requests();
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[2].action, "Unsubscribe");
  EXPECT_EQ(calls[2].body, "Action=Unsubscribe&SubscriptionArn="
                             + http::query_escape(subscription.arn) + "&Version=2010-03-31");
  EXPECT_TRUE(api->subscriptions().empty());
  EXPECT_TRUE(failures.all().empty());
}

TEST_F(sns_source, with_validate_signature_every_delivery_is_verified_against_its_certificate) {
  add(true);
  auto source = start();
  ASSERT_TRUE(confirmed()); // the confirmation itself was verified
  EXPECT_EQ(api->publish(topic, "one"), std::vector<long>{200});
  EXPECT_EQ(api->publish(topic, "two"), std::vector<long>{200});
  EXPECT_EQ(bus->wait_for(2, 10s).size(), 2u);
  EXPECT_EQ(api->cert_fetches(), 1); // fetched once, kept by URL

  auto body = api->notification(topic, "three");
  auto tampered = body;
  tampered.replace(tampered.find("three"), 5, "THREE");
  auto r = test::http_request("POST", url(), tampered, {"x-amz-sns-message-type: Notification"});
  EXPECT_EQ(r.status, 401);
  EXPECT_EQ(r.body, "message signature check error");

  auto foreign = nlohmann::json::parse(body);
  foreign["SigningCertURL"] = "https://evil.example.com/cert.pem";
  r = test::http_request("POST", url(), foreign.dump());
  EXPECT_EQ(r.status, 401);
  EXPECT_NE(r.body.find("hostname `evil.example.com`"), std::string::npos) << r.body;
  foreign["SigningCertURL"] = "http://127.0.0.1/cert.pem";
  EXPECT_EQ(test::http_request("POST", url(), foreign.dump()).status, 401);
  auto unsigned_message = nlohmann::json::parse(body);
  unsigned_message.erase("Signature");
  EXPECT_EQ(test::http_request("POST", url(), unsigned_message.dump()).status, 401);
  EXPECT_EQ(rejected("signature"), 4);
  EXPECT_EQ(bus->size(), 2u);
}

TEST_F(sns_source, signature_version_2_is_sha256_with_rsa) {
  api = std::make_unique<test::aws::sns_api>(test::aws::aws_server_options{}, 2);
  topic = api->topic_arn("orders");
  opts.sns_cert_ca_pem = api->certificate();
  add(true);
  auto source = start();
  ASSERT_TRUE(confirmed());
  EXPECT_EQ(api->publish(topic, "v2"), std::vector<long>{200});
  EXPECT_EQ(bus->wait_for(1, 10s).size(), 1u);
}

TEST_F(sns_source, a_role_arn_is_assumed_at_sts_and_its_credentials_call_sns) {
  test::aws::aws_server_options with_role;
  with_role.roles["arn:aws:iam::1:role/sns"] = {};
  test::aws::aws_server sts{with_role}; // STS, at --aws-endpoint
  api = std::make_unique<test::aws::sns_api>(with_role);
  topic = api->topic_arn("orders");
  opts.endpoint = sts.endpoint();
  opts.sns_cert_ca_pem = api->certificate();
  add().role_arn = "arn:aws:iam::1:role/sns";
  auto source = start();
  ASSERT_TRUE(confirmed()) << (failures.all().empty() ? "" : failures.all()[0]);
  ASSERT_EQ(sts.requests().size(), 1u);
  EXPECT_EQ(sts.requests()[0].action, "AssumeRole");
  for (const auto& call : api->requests()) {
    EXPECT_EQ(call.error_code, "") << call.action;
    EXPECT_NE(std::find(call.signed_headers.begin(), call.signed_headers.end(),
                        "x-amz-security-token"),
              call.signed_headers.end())
      << call.action;
  }
}

TEST_F(sns_source, what_is_not_a_notification_publishes_nothing) {
  add();
  auto source = start();
  ASSERT_TRUE(confirmed());
  auto r = test::http_request("POST", url(), "not json");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, "bad request, not a valid SNS notification");
  EXPECT_EQ(test::http_request("POST", url(), "null").status, 400);

  // A confirmation SNS does not know: ConfirmSubscription fails, the producer hears why.
  auto bogus = R"({"Type":"SubscriptionConfirmation","MessageId":"x","Token":"bogus",)"
               R"("TopicArn":")" + topic + R"(","Message":"m","Timestamp":"t"})";
  r = test::http_request("POST", url(), bogus);
  EXPECT_EQ(r.status, 400);
  EXPECT_NE(r.body.find("InvalidParameter: Invalid token"), std::string::npos) << r.body;

  auto goodbye = R"({"Type":"UnsubscribeConfirmation","MessageId":"y","Token":"t",)"
                 R"("TopicArn":")" + topic + R"(","Message":"m","Timestamp":"t"})";
  r = test::http_request("POST", url(), goodbye);
  EXPECT_EQ(r.status, 200);
  EXPECT_EQ(bus->size(), 0u);
}

TEST_F(sns_source, refused_credentials_give_up_and_an_unreachable_sns_fails) {
  write_keys("AKIAGANGLIONTEST", "a-wrong-secret");
  add();
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return !failures.all().empty(); }));
  auto first = failures.all()[0];
  EXPECT_EQ(first.rfind("give_up: SNS Subscribe: HTTP 403 ", 0), 0u)
    << first;
  source.reset();

  auto before = failures.all().size();
  write_keys("AKIAGANGLIONTEST", "ganglion-test-secret-key");
  events["example"].endpoint = "http://127.0.0.1:" + std::to_string(test::free_port());
  source = start();
  ASSERT_TRUE(test::eventually([&] { return failures.all().size() > before; }));
  auto last = failures.all().back();
  EXPECT_EQ(last.rfind("fail: SNS Subscribe: ", 0), 0u) << last;
}
