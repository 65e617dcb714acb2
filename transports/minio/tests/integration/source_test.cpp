// The minio source against the test S3 endpoint's ListenBucketNotification stream (SigV4
// checked), with a bus that records what it is offered.

#include <atomic>
#include <mutex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "eventually.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/minio/spec.hpp"
#include "ganglion/minio/transport.hpp"
#include "http_sink.hpp"
#include "kind_manifests.hpp"
#include "recording_bus.hpp"
#include "s3/s3_server.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

class minio_source_test : public ::testing::Test {
protected:
  void SetUp() override {
    server.put_bucket("input");
    test::write_file(secrets + "/minio/accesskey", server.options().access_key + "\n");
    test::write_file(secrets + "/minio/secretkey", server.options().secret_key);
    spec.endpoint = server.endpoint();
    spec.insecure = true;
    spec.bucket = minio::bucket_spec{"input", ""};
    spec.access_key = dsl::secret_key_selector{"minio", "accesskey"};
    spec.secret_key = dsl::secret_key_selector{"minio", "secretkey"};
    spec.events = {"s3:ObjectCreated:Put", "s3:ObjectRemoved:Delete"};
  }

  std::unique_ptr<core::source> start() {
    es.metadata.name = "minio";
    test::put_event(es, "minio", "example", spec);
    core::source_context ctx;
    ctx.event_source_name = "minio";
    ctx.event_name = "example";
    ctx.type = "minio";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.secrets = std::make_shared<core::secret_store>(secrets);
    ctx.metrics = &metrics;
    ctx.fail = [this](const std::string& reason) {
      std::lock_guard guard{mutex};
      failures.push_back(reason);
    };
    ctx.connected = [this] { connected.fetch_add(1); };
    return core::start_source(minio::make_source_factory(), ctx);
  }

  std::vector<std::string> failed() {
    std::lock_guard guard{mutex};
    return failures;
  }

  std::uint64_t counter(const std::string& family, const std::string& reason = {}) {
    core::labels series{{"eventsource", "minio"}, {"event", "example"}};
    if (!reason.empty())
      series.emplace_back("reason", reason);
    return metrics.get_counter(family, "", series).value();
  }

  test::s3::s3_server server;
  dsl::event_source es;
  test::event_under_test<minio::event_spec> spec;
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  std::string secrets = test::temp_dir();
  std::mutex mutex;
  std::vector<std::string> failures;
  std::atomic<int> connected{0};
};

TEST_F(minio_source_test, listens_with_minio_gos_signed_request_and_publishes_each_line) {
  spec.prefix = "in/";
  spec.suffix = ".csv";
  spec.metadata = {{"team", "data"}};
  auto source = start();
  // The server counts the listener before the source has read the answer's head and says so.
  ASSERT_TRUE(test::eventually([&] { return server.listeners() == 1 && connected.load() == 1; },
                               10s))
    << failed().size() << " " << connected.load();
  auto requests = server.requests();
  ASSERT_FALSE(requests.empty());
  EXPECT_EQ(requests.back().target,
            "/input?events=s3%3AObjectCreated%3APut&events=s3%3AObjectRemoved%3ADelete"
            "&ping=10&prefix=in%2F&suffix=.csv");
  EXPECT_EQ(requests.back().error_code, "");

  server.notify("input", "in/a.csv", "s3:ObjectCreated:Put", 42);
  server.notify("input", "other/b.csv", "s3:ObjectCreated:Put", 1); // prefix: not sent
  server.notify("input", "in/a.csv", "s3:ObjectRemoved:Delete");
  auto events = bus->wait_for(2);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].source, "minio");
  EXPECT_EQ(events[0].type, "minio");
  EXPECT_EQ(events[0].subject, "example");
  auto data = json::parse(events[0].data);
  EXPECT_EQ(data["notification"][0]["eventName"], "s3:ObjectCreated:Put");
  EXPECT_EQ(data["notification"][0]["s3"]["bucket"]["name"], "input");
  EXPECT_EQ(data["notification"][0]["s3"]["object"]["key"], "in/a.csv");
  EXPECT_EQ(data["notification"][0]["s3"]["object"]["size"], 42);
  EXPECT_EQ(data["metadata"]["team"], "data");
  auto removed = json::parse(events[1].data);
  EXPECT_EQ(removed["notification"][0]["eventName"], "s3:ObjectRemoved:Delete");
  EXPECT_FALSE(removed["notification"][0]["s3"]["object"].contains("size"));
  EXPECT_EQ(counter("ganglion_events_accepted_total"), 2u);
}

TEST_F(minio_source_test, exact_event_data_of_a_line) {
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return server.listeners() == 1; }, 10s));
  server.notify_line("input", R"({"Records":[{"eventName":"s3:ObjectCreated:Put",)"
                              R"("s3":{"bucket":{"name":"input"},"object":{"key":"a<b>"}},)"
                              R"("extra":1}]})");
  server.notify_line("input", "");
  server.notify_line("input", "not json");
  server.notify_line("input", R"({"Records":[]})");
  server.notify_line("input", R"({"records":[{"eventName":"x"}]})");
  auto events = bus->wait_for(2);
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].data,
            R"({"notification":[{"eventVersion":"","eventSource":"","awsRegion":"","eventTime":"",)"
            R"("eventName":"s3:ObjectCreated:Put","userIdentity":{"principalId":""},)"
            R"("requestParameters":null,"responseElements":null,"s3":{"s3SchemaVersion":"",)"
            R"("configurationId":"","bucket":{"name":"input","ownerIdentity":{"principalId":""},)"
            R"("arn":""},"object":{"key":"a\u003cb\u003e","sequencer":""}},)"
            R"("source":{"host":"","port":"","userAgent":""}}]})");
  EXPECT_NE(events[1].data.find(R"("eventName":"x")"), std::string::npos);
  EXPECT_EQ(counter("ganglion_events_rejected_total", "invalid_json"), 1u);
}

TEST_F(minio_source_test, reconnects_when_the_stream_drops) {
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return server.listeners() == 1 && connected.load() == 1; },
                               10s));
  server.drop_listeners();
  ASSERT_TRUE(test::eventually([&] { return connected.load() == 2; }, 15s));
  ASSERT_TRUE(test::eventually([&] { return server.listeners() == 1; }, 10s));
  server.notify("input", "x.csv", "s3:ObjectCreated:Put", 3);
  EXPECT_EQ(bus->wait_for(1).size(), 1u);
  EXPECT_TRUE(failed().empty());
  EXPECT_EQ(counter("ganglion_source_reconnects_total"), 1u);
}

TEST_F(minio_source_test, a_refused_request_fails_the_source_with_the_reason) {
  test::write_file(secrets + "/minio/secretkey", "wrong");
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }, 10s));
  EXPECT_NE(failed()[0].find("HTTP 403 SignatureDoesNotMatch"), std::string::npos) << failed()[0];
  EXPECT_EQ(connected.load(), 0);
}

TEST_F(minio_source_test, a_missing_bucket_or_an_unreachable_endpoint_fails_the_source) {
  spec.bucket = minio::bucket_spec{"absent", ""};
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }, 10s));
  EXPECT_NE(failed()[0].find("HTTP 404 NoSuchBucket"), std::string::npos) << failed()[0];
  source.reset();
  spec.bucket = minio::bucket_spec{"input", ""};
  spec.endpoint = "127.0.0.1:" + std::to_string(test::free_port());
  source = start();
  ASSERT_TRUE(test::eventually([&] { return failed().size() == 2; }, 15s));
  EXPECT_NE(failed()[1].find("cannot listen to bucket input at " + spec.endpoint),
            std::string::npos)
    << failed()[1];
}

TEST_F(minio_source_test, missing_secrets_refuse_the_start) {
  spec.access_key = dsl::secret_key_selector{"minio", "absent"};
  EXPECT_THROW(start(), core::source_error);
}

} // namespace
