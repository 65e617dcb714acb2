// Argo's own corpus example event-sources/aws-sns.yaml through the ganglion binary, its port
// moved to a free one, its webhook.url to that port and its SNS endpoint to a stand-in of SNS
// (tests/support/aws/sns_api.hpp): the topic is subscribed, the subscription confirmed, a
// published message fires the sensor's HTTP trigger, and stopping the engine unsubscribes.

#include <regex>

#include "aws/sns_api.hpp"
#include "engine_process.hpp"
#include "files.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

/// The corpus EventSource on `port` and SNS at `sns`, and a sensor posting the message to `sink`.
std::string manifests(std::uint16_t port, const std::string& sns, const std::string& sink) {
  auto source = test::read_file(std::string{GANGLION_CORPUS_DIR} + "/event-sources/aws-sns.yaml");
  source = std::regex_replace(source, std::regex{"12000"}, std::to_string(port));
  source = std::regex_replace(source, std::regex{"http://url-that-is-reachable-from-AWS"},
                              "http://127.0.0.1:" + std::to_string(port));
  source = std::regex_replace(source, std::regex{"\n      region: us-east-1\n"},
                              "\n      region: us-east-1\n      endpoint: " + sns + "\n");
  return source + fmt::format(R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: aws-sns
spec:
  dependencies:
    - name: test-dep
      eventSourceName: aws-sns
      eventName: example
  triggers:
    - template:
        name: http-trigger
        http:
          url: {}
          method: POST
          payload:
            - src: {{dependencyName: test-dep, dataKey: body.Message}}
              dest: message
            - src: {{dependencyName: test-dep, dataKey: header.X-Amz-Sns-Message-Type.0}}
              dest: type
)",
                              sink);
}

} // namespace

TEST(e2e_sns, the_corpus_example_subscribes_confirms_fires_and_unsubscribes) {
  test::aws::sns_api sns;
  auto secrets = test::temp_dir();
  test::aws::aws_server_options keys;
  test::write_file(secrets + "/aws-secret/accesskey", keys.access_key);
  test::write_file(secrets + "/aws-secret/secretkey", keys.secret_key);
  test::http_sink sink;
  auto port = test::free_port();
  e2e::engine_process engine{manifests(port, sns.endpoint(), sink.url("/sns")), secrets};
  auto topic = "arn:aws:sns:us-east-1:XXXXXXXX:test";
  ASSERT_TRUE(test::eventually([&] {
    auto subs = sns.subscriptions();
    return subs.size() == 1 && subs[0].confirmed;
  })) << engine.output();
  EXPECT_EQ(sns.subscriptions()[0].topic_arn, topic);
  EXPECT_EQ(sns.subscriptions()[0].endpoint, "http://127.0.0.1:" + std::to_string(port) + "/");

  EXPECT_EQ(sns.publish(topic, "hello from SNS"), std::vector<long>{200});
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  EXPECT_EQ(sink.requests()[0].body, R"({"message":"hello from SNS","type":"Notification"})");

  engine.stop();
  EXPECT_TRUE(sns.subscriptions().empty()) << engine.output();
}
