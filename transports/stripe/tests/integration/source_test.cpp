// The stripe source on a real server: Argo's event data, eventFilter, bodies Go cannot read,
// and createWebhook against a stand-in of Stripe's webhook endpoints API
// (tests/support/stripe_api.hpp), which checks the exact requests: the endpoint created (and
// then every Stripe-Signature checked with its secret), or found and kept.

#include <gtest/gtest.h>

#include "eventually.hpp"
#include "files.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/stripe/spec.hpp"
#include "ganglion/stripe/transport.hpp"
#include "http_request.hpp"
#include "http_sink.hpp"
#include "kind_manifests.hpp"
#include "push_source_context.hpp"
#include "recording_bus.hpp"
#include "stripe_api.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

constexpr const char* key = "sk_test_4eC39HqLyjWDarjtT1zdp7dc";

class stripe_source : public ::testing::Test {
protected:
  void SetUp() override {
    es.metadata.name = "stripe";
    test::write_file(secrets + "/stripe/api-key", key);
    rt = test::loopback_runtime();
    opts.api_url = api.base_url();
  }

  /// The corpus example's event on a free port; `create` sets createWebhook and its key.
  test::event_under_test<stripe::event_spec>& add(const std::string& name, bool create) {
    auto& e = events[name];
    e.webhook.endpoint = "/example";
    e.webhook.port = std::to_string(port);
    e.webhook.method = "POST";
    e.webhook.url = "http://hooks.example:12000/";
    e.create_webhook = create;
    if (create)
      e.api_key = dsl::secret_key_selector{"stripe", "api-key"};
    return e;
  }

  std::unique_ptr<core::source> start(const std::string& name) {
    for (const auto& [event, spec] : events)
      test::put_event(es, "stripe", event, spec);
    return stripe::make_source_factory(rt, opts)(
      test::push_source_context(es, "stripe", name, bus, &metrics, secrets, failures));
  }

  test::http_response post(const std::string& body, std::vector<std::string> headers = {}) const {
    headers.push_back("Content-Type: application/json; charset=utf-8");
    return test::http_request("POST", "http://127.0.0.1:" + std::to_string(port) + "/example",
                              body, headers);
  }

  /// `Stripe-Signature` as Stripe signs `body` at `t` with `secret`.
  static std::string signature(const std::string& secret, const std::string& body,
                               std::int64_t t) {
    return "Stripe-Signature: " + test::stripe_signature(secret, body, t);
  }

  static std::int64_t now() {
    return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
  }

  long counter(const std::string& reason) const {
    auto series = R"(ganglion_events_rejected_total{eventsource="stripe",event="example",reason=")"
                  + reason + "\"}";
    auto text = metrics.render();
    auto at = text.find(series + " ");
    return at == std::string::npos ? 0 : std::stol(text.substr(at + series.size() + 1));
  }

  test::stripe_api api{key};
  std::uint16_t port = test::free_port();
  std::string secrets = test::temp_dir();
  std::shared_ptr<http::runtime> rt;
  stripe::options opts{.request_timeout = 5000ms, .first_retry = 5ms, .max_retry = 20ms,
                       .attempts = 3};
  dsl::event_source es;
  std::map<std::string, test::event_under_test<stripe::event_spec>> events;
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  test::recorded_failures failures;
};

const std::string charge = R"({"id":"evt_1","object":"event","created":1714565594,)"
                           R"("data":{"object":{"id":"ch_1","amount":2000}},"livemode":false,)"
                           R"("pending_webhooks":1,"request":{"id":null,"idempotency_key":null},)"
                           R"("type":"charge.succeeded"})";

} // namespace

TEST_F(stripe_source, an_event_is_published_with_argos_data_and_the_filter_applies) {
  auto& e = add("example", false);
  e.event_filter = std::vector<std::string>{"charge.succeeded"};
  e.metadata = {{"team", "billing"}};
  auto source = start("example");
  auto r = post(charge);
  EXPECT_EQ(r.status, 200) << r.body << r.error;
  auto got = bus->wait_for(1, 10s);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, "stripe");
  EXPECT_EQ(got[0].source, "stripe");
  EXPECT_EQ(got[0].subject, "example");
  EXPECT_EQ(got[0].data,
            R"({"event":{"account":"","created":1714565594,"data":{"previous_attributes":null,)"
            R"("object":{"id":"ch_1","amount":2000}},"id":"evt_1","livemode":false,)"
            R"("pending_webhooks":1,"request":{"id":"","idempotency_key":""},)"
            R"("type":"charge.succeeded"},"metadata":{"team":"billing"}})");

  auto other = post(R"({"id":"evt_2","type":"invoice.paid"})");
  EXPECT_EQ(other.status, 400);
  EXPECT_EQ(other.body, "invalid event");
  auto broken = post(R"({"id":"evt_3","created":"yesterday"})");
  EXPECT_EQ(broken.status, 400);
  EXPECT_EQ(broken.body, "failed to parse the event");
  EXPECT_EQ(counter("filtered"), 1);
  EXPECT_EQ(counter("malformed"), 1);
  EXPECT_EQ(bus->size(), 1u);
  EXPECT_TRUE(api.requests().empty()); // no createWebhook: no call to Stripe
}

TEST_F(stripe_source, create_webhook_makes_the_endpoint_and_then_checks_every_signature) {
  add("example", true).event_filter = std::vector<std::string>{"charge.succeeded", "invoice.paid"};
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return api.endpoints().size() == 1; }));
  auto made = api.endpoints()[0];
  EXPECT_EQ(made.url, "http://hooks.example:12000/example");
  EXPECT_EQ(made.enabled_events, (std::vector<std::string>{"charge.succeeded", "invoice.paid"}));
  auto requests = api.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].target, "/v1/webhook_endpoints?limit=100");
  EXPECT_EQ(requests[1].method, "POST");
  EXPECT_EQ(requests[1].target, "/v1/webhook_endpoints");
  EXPECT_EQ(requests[1].body, "enabled_events[0]=charge.succeeded&enabled_events[1]=invoice.paid&"
                              "url=http%3A%2F%2Fhooks.example%3A12000%2Fexample");
  EXPECT_EQ(requests[1].header("Content-Type"), "application/x-www-form-urlencoded");
  EXPECT_EQ(requests[1].header("Stripe-Version"), "2020-03-02");
  EXPECT_TRUE(failures.all().empty());

  // The secret is known once the creation answered; from then on every request is checked
  // (the probe is a body refused either way: 400 before, 401 after).
  ASSERT_TRUE(test::eventually([&] { return post("probe").status == 401; }));
  auto unsigned_post = post(charge);
  EXPECT_EQ(unsigned_post.status, 401);
  EXPECT_EQ(unsigned_post.body, "webhook has no Stripe-Signature header");
  EXPECT_EQ(post(charge, {signature("whsec_other", charge, now())}).status, 401);
  auto old = post(charge, {signature(made.secret, charge, now() - 600)});
  EXPECT_EQ(old.status, 401);
  EXPECT_EQ(old.body, "timestamp wasn't within tolerance");
  auto tampered = charge;
  tampered.replace(tampered.find("2000"), 4, "9000");
  EXPECT_EQ(post(tampered, {signature(made.secret, charge, now())}).status, 401);
  EXPECT_EQ(bus->size(), 0u);

  auto signed_post = post(charge, {signature(made.secret, charge, now())});
  EXPECT_EQ(signed_post.status, 200) << signed_post.body;
  EXPECT_EQ(bus->wait_for(1, 10s).size(), 1u);
  EXPECT_GE(counter("signature"), 5);
}

TEST_F(stripe_source, an_endpoint_already_there_is_kept_its_events_set_and_no_other_made) {
  for (int i = 0; i < 150; ++i) // more than a page of 100
    api.put_endpoint("https://elsewhere.example/" + std::to_string(i), {"*"});
  auto id = api.put_endpoint("http://hooks.example:12000/example", {"charge.failed"});
  add("example", true); // no eventFilter: every event
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] {
    auto all = api.endpoints();
    return all.back().enabled_events == std::vector<std::string>{"*"};
  }));
  EXPECT_EQ(api.endpoints().size(), 151u);
  EXPECT_EQ(api.endpoints().back().id, id);
  auto requests = api.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[1].target, "/v1/webhook_endpoints?limit=100&starting_after=we_100");
  EXPECT_EQ(requests[2].target, "/v1/webhook_endpoints/" + id);
  EXPECT_EQ(requests[2].body, "enabled_events[0]=%2A");
  // Its secret is not known: requests pass unsigned, as with Argo.
  EXPECT_EQ(post(charge).status, 200);
  EXPECT_EQ(bus->wait_for(1, 10s).size(), 1u);
  EXPECT_TRUE(failures.all().empty());
}

TEST_F(stripe_source, a_key_stripe_refuses_gives_up_at_once_with_stripes_message) {
  test::write_file(secrets + "/stripe/api-key", "sk_test_wrong");
  add("example", true);
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return !failures.all().empty(); }));
  auto why = failures.all();
  ASSERT_EQ(why.size(), 1u);
  EXPECT_EQ(why[0].rfind("give_up: Stripe webhook endpoint: GET ", 0), 0u) << why[0];
  EXPECT_NE(why[0].find("answered 401"), std::string::npos) << why[0];
  EXPECT_NE(why[0].find("Invalid API Key provided"), std::string::npos) << why[0];
  EXPECT_EQ(api.requests().size(), 1u);
}

TEST_F(stripe_source, an_api_that_stays_down_fails_the_source_after_the_retries) {
  api.set_down(true);
  add("example", true);
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return !failures.all().empty(); }));
  auto why = failures.all();
  ASSERT_EQ(why.size(), 1u);
  EXPECT_EQ(why[0].rfind("fail: Stripe webhook endpoint: GET ", 0), 0u) << why[0];
  EXPECT_NE(why[0].find("answered 503"), std::string::npos) << why[0];
  EXPECT_EQ(api.requests().size(), 3u); // opts.attempts
  EXPECT_EQ(post(charge).status, 200);  // the endpoint still answers meanwhile
}

TEST_F(stripe_source, a_missing_api_key_secret_refuses_to_start) {
  add("example", true).api_key = dsl::secret_key_selector{"stripe", "nope"};
  EXPECT_THROW(start("example"), core::source_error);
  EXPECT_TRUE(api.requests().empty());
}
