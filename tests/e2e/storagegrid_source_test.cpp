// Argo's own corpus example event-sources/storage-grid.yaml through the ganglion binary, its port
// moved to a free one and its apiURL pointed at a stand-in of StorageGRID's management API
// (tests/support/storagegrid_api.hpp) that holds the example's bucket and token: the source
// registers the endpoint and the bucket's notification configuration, and a notification in
// StorageGRID's form fires the sensor's HTTP trigger with Argo's data.

#include <cctype>
#include <regex>

#include "engine_process.hpp"
#include "files.hpp"
#include "storagegrid_api.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

constexpr const char* bucket = "name of the bucket";

/// Go's url.QueryEscape, as StorageGRID form-encodes the message.
std::string form_escape(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
      out += static_cast<char>(c);
    else if (c == ' ')
      out += '+';
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

/// The corpus EventSource on `port` against `api_url`, and a sensor posting the event's object
/// key and topic to `sink`.
std::string manifests(std::uint16_t port, const std::string& api_url, const std::string& sink) {
  auto source =
    test::read_file(std::string{GANGLION_CORPUS_DIR} + "/event-sources/storage-grid.yaml");
  source = std::regex_replace(source, std::regex{"8080"}, std::to_string(port));
  source = std::regex_replace(source, std::regex{"storagegrid api url"}, api_url);
  return source
         + fmt::format(R"(---
apiVersion: argoproj.io/v1alpha1
kind: Sensor
metadata:
  name: storage-grid
spec:
  dependencies:
    - name: test-dep
      eventSourceName: storage-grid
      eventName: example
  triggers:
    - template:
        name: http-trigger
        http:
          url: {}
          method: POST
          payload:
            - src: {{dependencyName: test-dep, dataKey: notification.Message.Records.0.s3.object.key}}
              dest: key
            - src: {{dependencyName: test-dep, dataKey: notification.TopicArn}}
              dest: topic
)",
                       sink);
}

} // namespace

TEST(e2e_storagegrid, the_corpus_example_registers_and_fires_on_a_notification) {
  test::storagegrid_api api{"grid-token", {bucket}};
  auto secrets = test::temp_dir();
  test::write_file(secrets
                     + "/name of k8s secret that holds storagegrid auth token/"
                       "key within secret that holds the token value",
                   "grid-token");
  test::http_sink sink;
  auto port = test::free_port();
  e2e::engine_process engine{manifests(port, api.api_url(), sink.url("/grid")), secrets};
  ASSERT_TRUE(test::eventually([&] { return api.notification(bucket).has_value(); }))
    << engine.output();
  auto endpoints = api.endpoints();
  ASSERT_EQ(endpoints.size(), 1u);
  EXPECT_EQ(endpoints[0].display_name, "example");
  EXPECT_EQ(endpoints[0].uri, "event-source-url/");
  EXPECT_EQ(endpoints[0].urn, "topic arn");
  EXPECT_NE(api.notification(bucket)->find("<Event>s3:ObjectCreated:*</Event>"), std::string::npos);
  EXPECT_EQ(api.requests().back().target,
            "/api/v3/org/containers/name%20of%20the%20bucket/notification");

  auto message =
    R"({"Records":[{"eventName":"ObjectCreated:Put","eventTime":"2026-12-06T10:20:30Z",)"
    R"("s3":{"bucket":{"name":"name of the bucket"},"object":{"key":"reports/q4.csv",)"
    R"("size":1024}}}]})";
  auto body =
    "Action=Publish&Message=" + form_escape(message) + "&TopicArn=topic+arn&Version=2010-03-31";
  auto r = test::http_request("POST", fmt::format("http://127.0.0.1:{}/", port), body,
                              {"Content-Type: application/x-www-form-urlencoded"});
  EXPECT_EQ(r.status, 200) << r.body << r.error;
  EXPECT_EQ(r.body.rfind("\n<PublishResponse xmlns=\"http://argoevents-sns-server/\">", 0), 0u)
    << r.body;
  EXPECT_EQ(r.body.substr(r.body.size() - 26), "</PublishResponse>\nsuccess");
  ASSERT_TRUE(sink.wait_for(1, 10s)) << engine.output();
  EXPECT_EQ(sink.requests()[0].body, R"({"key":"reports/q4.csv","topic":"topic arn"})");
}
