// The storageGrid source on a real server: StorageGRID's form-encoded notifications published
// with Argo's data and answered with Argo's PublishResponse, the key filter, bodies Argo drops,
// and the registration against a stand-in of StorageGRID's management API
// (tests/support/storagegrid_api.hpp), which checks the exact requests and the bearer token.

#include <gtest/gtest.h>

#include "eventually.hpp"
#include "files.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/http/hook_registrar.hpp"
#include "ganglion/storagegrid/spec.hpp"
#include "ganglion/storagegrid/transport.hpp"
#include "http_request.hpp"
#include "http_sink.hpp"
#include "kind_manifests.hpp"
#include "push_source_context.hpp"
#include "recording_bus.hpp"
#include "storagegrid_api.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

constexpr const char* token = "grid-token-1";
constexpr const char* topic = "urn:sgws:sns:us-east-1::argo";

class storagegrid_source : public ::testing::Test {
protected:
  void SetUp() override {
    es.metadata.name = "storage-grid";
    test::write_file(secrets + "/grid/token", token);
    rt = test::loopback_runtime();
  }

  /// The corpus example's event on a free port, against the stand-in.
  test::event_under_test<storagegrid::event_spec>& add(const std::string& name) {
    auto& e = events[name];
    e.webhook.endpoint = "/";
    e.webhook.port = std::to_string(port);
    e.webhook.method = "POST";
    e.webhook.url = "http://hooks.example:8080";
    e.events = std::vector<std::string>{"s3:ObjectCreated:*", "s3:ObjectRemoved:*"};
    e.topic_arn = topic;
    e.bucket = "my-bucket";
    e.api_url = api.api_url();
    e.auth_token = dsl::secret_key_selector{"grid", "token"};
    return e;
  }

  std::unique_ptr<core::source> start(const std::string& name) {
    for (const auto& [event, spec] : events)
      test::put_event(es, "storageGrid", event, spec);
    return storagegrid::make_source_factory(rt, opts)(
      test::push_source_context(es, "storageGrid", name, bus, &metrics, secrets, failures));
  }

  test::http_response post(const std::string& body) const {
    return test::http_request("POST", "http://127.0.0.1:" + std::to_string(port) + "/", body,
                              {"Content-Type: application/x-www-form-urlencoded"});
  }

  long counter(const std::string& reason) const {
    auto series =
      R"(ganglion_events_rejected_total{eventsource="storage-grid",event="example",reason=")"
      + reason + "\"}";
    auto text = metrics.render();
    auto at = text.find(series + " ");
    return at == std::string::npos ? 0 : std::stol(text.substr(at + series.size() + 1));
  }

  test::storagegrid_api api{token, {"my-bucket"}};
  std::uint16_t port = test::free_port();
  std::string secrets = test::temp_dir();
  std::shared_ptr<http::runtime> rt;
  storagegrid::options opts{
    .request_timeout = 5000ms, .first_retry = 5ms, .max_retry = 20ms, .attempts = 3};
  dsl::event_source es;
  std::map<std::string, test::event_under_test<storagegrid::event_spec>> events;
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  test::recorded_failures failures;
};

/// The form StorageGRID posts for an object `key` put in my-bucket.
std::string notification(const std::string& key) {
  auto message = R"({"Records":[{"eventVersion":"2.0","eventSource":"sgws:s3",)"
                 R"("eventTime":"2026-12-06T10:20:30.5Z","eventName":"ObjectCreated:Put",)"
                 R"("userIdentity":{"principalId":"7777"},"requestParameters":)"
                 R"({"sourceIPAddress":"10.0.0.9"},"responseElements":{"x-amz-request-id":"1AB"},)"
                 R"("s3":{"s3SchemaVersion":"1.0","configurationId":"argo","bucket":)"
                 R"({"name":"my-bucket","ownerIdentity":{"principalId":"7777"},)"
                 R"("arn":"urn:sgfs:s3:::my-bucket"},"object":{"key":")"
                 + key + R"(","size":6,"eTag":"abc","sequencer":"0001"}}}]})";
  return "Action=Publish&Message=" + http::query_escape(message)
         + "&TopicArn=" + http::query_escape(topic) + "&Version=2010-03-31";
}

bool is_publish_response(const std::string& body, const std::string& tail) {
  static const std::string head =
    "\n<PublishResponse xmlns=\"http://argoevents-sns-server/\">\n    <PublishResult> \n"
    "        <MessageId>";
  return body.rfind(head, 0) == 0 && body.size() > tail.size()
         && body.compare(body.size() - tail.size(), tail.size(), tail) == 0
         && body.find("</MessageId> \n    </PublishResult> \n    <ResponseMetadata>\n"
                      "       <RequestId>")
              == head.size() + 36;
}

} // namespace

TEST_F(storagegrid_source, a_notification_is_published_with_argos_data_and_the_filter_applies) {
  auto& e = add("example");
  e.object_filter = storagegrid::key_filter{"hello-", ".txt"};
  e.metadata = {{"team", "storage"}};
  auto source = start("example");
  auto r = post(notification("hello-world.txt"));
  EXPECT_EQ(r.status, 200) << r.body << r.error;
  EXPECT_TRUE(is_publish_response(r.body, "</PublishResponse>\nsuccess")) << r.body;
  auto got = bus->wait_for(1, 10s);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, "storageGrid");
  EXPECT_EQ(got[0].source, "storage-grid");
  EXPECT_EQ(got[0].subject, "example");
  EXPECT_EQ(got[0].data,
            R"({"notification":{"Action":"Publish","Message":{"Records":[{"eventVersion":"2.0",)"
            R"("storageGridEventSource":"","eventTime":"2026-12-06T10:20:30.5Z",)"
            R"("eventName":"ObjectCreated:Put","userIdentity":{"principalId":"7777"},)"
            R"("requestParameters":{"sourceIPAddress":"10.0.0.9"},"responseElements":)"
            R"({"x-amz-request-id":"1AB"},"s3":{"s3SchemaVersion":"1.0","configurationId":"argo",)"
            R"("bucket":{"name":"my-bucket","ownerIdentity":{"principalId":"7777"},)"
            R"("arn":"urn:sgfs:s3:::my-bucket"},"object":{"key":"hello-world.txt","size":6,)"
            R"("eTag":"abc","sequencer":"0001"}}}]},"TopicArn":"urn:sgws:sns:us-east-1::argo",)"
            R"("Version":"2010-03-31"},"metadata":{"team":"storage"}})");

  // Filtered and unreadable notifications are answered as Argo answers them (200, the
  // PublishResponse alone, the same UUIDs) and published nowhere.
  auto filtered = post(notification("bye.csv"));
  EXPECT_EQ(filtered.status, 200);
  EXPECT_TRUE(is_publish_response(filtered.body, "</PublishResponse>\n")) << filtered.body;
  EXPECT_EQ(filtered.body + "success", r.body);
  auto broken = post("Action=Publish&Version=1");
  EXPECT_EQ(broken.status, 200);
  EXPECT_EQ(broken.body, filtered.body);
  // Where Argo's handler panics (no record to filter on), a clear refusal instead.
  auto empty = post("Action=Publish&Message=" + http::query_escape(R"({"Records":[]})"));
  EXPECT_EQ(empty.status, 400);
  EXPECT_EQ(empty.body, "the notification has no Records to filter on");
  EXPECT_EQ(counter("filtered"), 1);
  EXPECT_EQ(counter("malformed"), 2);
  EXPECT_EQ(bus->size(), 1u);
}

TEST_F(storagegrid_source, it_registers_the_endpoint_and_the_buckets_notification) {
  add("example");
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return api.notification("my-bucket").has_value(); }));
  EXPECT_TRUE(failures.all().empty());
  auto made = api.endpoints();
  ASSERT_EQ(made.size(), 1u);
  EXPECT_EQ(made[0].display_name, "example");
  EXPECT_EQ(made[0].uri, "http://hooks.example:8080/");
  EXPECT_EQ(made[0].urn, topic);
  EXPECT_EQ(made[0].auth_type, "anonymous");
  EXPECT_TRUE(made[0].insecure_tls);
  EXPECT_EQ(*api.notification("my-bucket"),
            "\n<NotificationConfiguration>\n\t<TopicConfiguration>\n\t  <Id>example</Id>\n"
            "\t  <Topic>urn:sgws:sns:us-east-1::argo</Topic>\n"
            "\t  <Event>s3:ObjectCreated:*</Event>\n<Event>s3:ObjectRemoved:*</Event>\n"
            "\t</TopicConfiguration>\n</NotificationConfiguration>\n\n");

  auto requests = api.requests();
  ASSERT_EQ(requests.size(), 3u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].target, "/api/v3/org/endpoints");
  EXPECT_EQ(requests[0].body, "");
  EXPECT_EQ(requests[1].method, "POST");
  EXPECT_EQ(requests[1].target, "/api/v3/org/endpoints");
  EXPECT_EQ(requests[1].body,
            R"({"displayName":"example","endpointURI":"http://hooks.example:8080/",)"
            R"("endpointURN":"urn:sgws:sns:us-east-1::argo","authType":"anonymous",)"
            R"("insecureTLS":true})");
  EXPECT_EQ(requests[2].method, "PUT");
  EXPECT_EQ(requests[2].target, "/api/v3/org/containers/my-bucket/notification");
  EXPECT_EQ(
    requests[2].body.rfind(R"({"notification":"\n\u003cNotificationConfiguration\u003e)", 0), 0u)
    << requests[2].body;
  for (const auto& r : requests) {
    EXPECT_EQ(r.header("Authorization"), std::string{"Bearer "} + token);
    EXPECT_EQ(r.header("Content-Type"), "application/json");
    EXPECT_EQ(r.header("Accept"), "application/json");
    EXPECT_EQ(r.header("User-Agent"), "go-resty/2.17.2 (https://github.com/go-resty/resty)");
  }
}

TEST_F(storagegrid_source, an_endpoint_of_the_topic_already_there_is_not_made_again) {
  api.put_endpoint("https://elsewhere.example/", "urn:sgws:sns:us-east-1::other");
  api.put_endpoint("https://kept.example/", topic);
  add("example");
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return api.notification("my-bucket").has_value(); }));
  EXPECT_EQ(api.endpoints().size(), 2u);
  auto requests = api.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[1].method, "PUT");
  EXPECT_TRUE(failures.all().empty());
}

TEST_F(storagegrid_source, a_token_the_api_refuses_gives_up_at_once_with_its_message) {
  test::write_file(secrets + "/grid/token", "wrong");
  add("example");
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return !failures.all().empty(); }));
  auto why = failures.all();
  ASSERT_EQ(why.size(), 1u);
  EXPECT_EQ(
    why[0].rfind("give_up: failed to list existing endpoints. reason: Unauthorized (GET ", 0), 0u)
    << why[0];
  EXPECT_NE(why[0].find("answered 401"), std::string::npos) << why[0];
  EXPECT_EQ(api.requests().size(), 1u);
}

TEST_F(storagegrid_source, an_api_that_stays_down_fails_the_source_after_the_retries) {
  api.set_down(true);
  add("example");
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return !failures.all().empty(); }));
  auto why = failures.all();
  ASSERT_EQ(why.size(), 1u);
  EXPECT_EQ(why[0].rfind("fail: failed to list existing endpoints. reason: Service Unavailable", 0),
            0u)
    << why[0];
  EXPECT_NE(why[0].find("answered 503"), std::string::npos) << why[0];
  EXPECT_EQ(api.requests().size(), 3u); // opts.attempts
  // The endpoint still answers meanwhile.
  EXPECT_EQ(post(notification("a.txt")).status, 200);
  EXPECT_EQ(bus->wait_for(1, 10s).size(), 1u);
}

TEST_F(storagegrid_source, an_api_url_nothing_answers_at_fails_with_the_reason) {
  auto& e = add("example");
  e.api_url = "http://127.0.0.1:" + std::to_string(test::free_port()) + "/api/v3";
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return !failures.all().empty(); }));
  auto why = failures.all();
  ASSERT_EQ(why.size(), 1u);
  EXPECT_EQ(why[0].rfind("fail: failed to list existing endpoints: GET http://127.0.0.1:", 0), 0u)
    << why[0];
}

TEST_F(storagegrid_source, a_bucket_the_api_does_not_hold_fails_with_its_reason) {
  add("example").bucket = "elsewhere";
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return !failures.all().empty(); }));
  auto why = failures.all();
  ASSERT_EQ(why.size(), 1u);
  EXPECT_EQ(why[0].rfind("fail: failed to configure notification. reason: The bucket does not "
                         "exist (PUT ",
                         0),
            0u)
    << why[0];
  // The endpoint was made by the first pass; the retries find it and do not make it again.
  EXPECT_EQ(api.endpoints().size(), 1u);
}

TEST_F(storagegrid_source, a_missing_auth_token_secret_refuses_to_start) {
  add("example").auth_token = dsl::secret_key_selector{"grid", "nope"};
  EXPECT_THROW(start("example"), core::source_error);
  EXPECT_TRUE(api.requests().empty());
}
