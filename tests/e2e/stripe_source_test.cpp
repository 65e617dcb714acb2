// Argo's own corpus example event-sources/stripe.yaml through the ganglion binary, its port moved
// to a free one: createWebhook makes the endpoint at a stand-in of Stripe's API
// (tests/support/stripe_api.hpp, through --stripe-api-url) with the example's secret, and then
// only a request signed with the endpoint's secret fires the sensor's HTTP trigger.

#include <regex>

#include "engine_process.hpp"
#include "files.hpp"
#include "stripe_api.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// The corpus EventSource on `port`, and a sensor posting the event's type and object to `sink`.
std::string manifests(std::uint16_t port, const std::string& sink) {
  auto source = test::read_file(std::string{GANGLION_CORPUS_DIR} + "/event-sources/stripe.yaml");
  source = std::regex_replace(source, std::regex{"12000"}, std::to_string(port));
  return source + fmt::format(R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: stripe
spec:
  dependencies:
    - name: test-dep
      eventSourceName: stripe
      eventName: example
  triggers:
    - template:
        name: http-trigger
        http:
          url: {}
          method: POST
          payload:
            - src: {{dependencyName: test-dep, dataKey: event.type}}
              dest: type
            - src: {{dependencyName: test-dep, dataKey: event.data.object.id}}
              dest: object
)",
                              sink);
}

} // namespace

TEST(e2e_stripe, the_corpus_example_creates_its_endpoint_and_fires_on_signed_events_only) {
  test::stripe_api api{"sk_test_corpus"};
  auto secrets = test::temp_dir();
  test::write_file(secrets + "/secret_containing_api_key/key_within_secret_that_holds_api_key",
                   "sk_test_corpus");
  test::http_sink sink;
  auto port = test::free_port();
  e2e::engine_process engine{manifests(port, sink.url("/stripe")), secrets, true,
                             {"--stripe-api-url", api.base_url()}};
  ASSERT_TRUE(test::eventually([&] { return api.endpoints().size() == 1; })) << engine.output();
  auto endpoint = api.endpoints()[0];
  EXPECT_EQ(endpoint.url, "http://myfakeurl.fake/example");
  EXPECT_EQ(endpoint.enabled_events, std::vector<std::string>{"*"});

  const std::string body = R"({"id":"evt_1","object":"event","created":1714565594,)"
                           R"("data":{"object":{"id":"ch_1","object":"charge"}},)"
                           R"("type":"charge.succeeded"})";
  ASSERT_TRUE(test::eventually([&] { return e2e::post(port, "example", body).status == 401; }))
    << engine.output();
  auto now = std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
               .count();
  auto signature = "Stripe-Signature: " + test::stripe_signature(endpoint.secret, body, now);
  auto signed_post = e2e::post(port, "example", body, {signature});
  EXPECT_EQ(signed_post.status, 200) << signed_post.body;
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  EXPECT_EQ(sink.requests().size(), 1u);
  EXPECT_EQ(sink.requests()[0].body, R"({"type":"charge.succeeded","object":"ch_1"})");
}
