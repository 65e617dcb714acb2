// The azureQueueStorage source against azurite, the real Azure Storage emulator (started once per
// test process): Argo's event data byte for byte, jsonBody, decodeMessage, a message deleted only
// once the bus accepted it (or the filter dropped it), a refused one offered again and, past
// its visibility timeout, left to the queue to come back; dlq; Shared Key and SAS; and the
// failures: a missing queue, a wrong key, the endpoint going away and returning, or staying
// away. Messages are put by the test with its own Shared Key signer (tests/support).
//
// azurite comes from npm (`make test` installs it, tests/azurite); where node or azurite is
// missing the tests are skipped, saying so, except under CI=true, where they fail.

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <mutex>
#include <regex>

#include "azurite_server.hpp"
#include "eventually.hpp"
#include "files.hpp"
#include "ganglion/azure/spec.hpp"
#include "ganglion/azure/transport.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/http/client.hpp"
#include "http_sink.hpp"
#include "kind_manifests.hpp"
#include "log_capture.hpp"
#include "recording_bus.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

class azure_queue_storage : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    std::string why;
    if (test::azurite_queue_script(why).empty()) {
      skip_reason() = why;
      return;
    }
    server() = std::make_unique<test::azurite_server>();
  }
  static void TearDownTestSuite() { server().reset(); }

  void SetUp() override {
    if (!server()) {
      if (std::getenv("CI"))
        FAIL() << skip_reason() << " (CI=true: the machine must have it)";
      GTEST_SKIP() << skip_reason();
    }
    static std::atomic<int> n{0};
    queue = "orders-" + std::to_string(++n);
    server()->create_queue(queue);
    es.metadata.name = "storage";
    write_connection_string(server()->connection_string());
  }

  static std::unique_ptr<test::azurite_server>& server() {
    static std::unique_ptr<test::azurite_server> s;
    return s;
  }
  static std::string& skip_reason() {
    static std::string why;
    return why;
  }

  void write_connection_string(const std::string& text) {
    test::write_file(secrets + "/azure/cs", text);
  }

  test::event_under_test<azure::queue_storage_source_spec>& add(const std::string& name = "e") {
    auto& e = events[name];
    e.connection_string = dsl::secret_key_selector{"azure", "cs"};
    e.queue_name = queue;
    e.wait_time_in_seconds = 0; // the 100 ms floor between empty receives
    return e;
  }

  core::source_context context(const std::string& name = "e") {
    for (const auto& [event, spec] : events)
      test::put_event(es, "azureQueueStorage", event, spec);
    core::source_context ctx;
    ctx.event_source_name = es.metadata.name;
    ctx.event_name = name;
    ctx.type = "azureQueueStorage";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.metrics = &metrics;
    ctx.secrets = std::make_shared<core::secret_store>(secrets);
    ctx.fail = [this](const std::string& why) {
      std::lock_guard guard{mutex};
      failure = why;
    };
    return ctx;
  }

  static azure::options fast() {
    azure::options o;
    o.min_retry_delay = 20ms;
    o.max_retry_delay = 200ms;
    o.request_timeout = 5s;
    return o;
  }

  std::unique_ptr<core::source> start(azure::options opts = fast()) {
    return azure::make_queue_storage_source_factory(client, opts)(context());
  }

  std::string failed() {
    std::lock_guard guard{mutex};
    return failure;
  }

  /// `data` with its insertionTime (checked to be RFC 3339 in UTC, seconds) replaced by T.
  static std::string without_time(const std::string& data) {
    static const std::regex time{R"("insertionTime":"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ")"};
    return std::regex_replace(data, time, R"("insertionTime":"T")");
  }

  std::string queue;
  std::shared_ptr<http::client> client = std::make_shared<http::client>();
  std::string secrets = test::temp_dir();
  dsl::event_source es;
  std::map<std::string, test::event_under_test<azure::queue_storage_source_spec>> events;
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  std::mutex mutex;
  std::string failure;
};

TEST_F(azure_queue_storage, a_message_becomes_an_event_with_argos_data_and_is_deleted) {
  add().metadata = {{"team", "<a>"}};
  auto source = start();
  auto id = server()->put_message(queue, "hello <world> & more");
  ASSERT_TRUE(bus->arrived(1));
  auto e = bus->events().front();
  EXPECT_EQ(e.type, "azureQueueStorage");
  EXPECT_EQ(e.source, "storage");
  EXPECT_EQ(e.subject, "e");
  EXPECT_EQ(without_time(e.data), R"({"body":"aGVsbG8gPHdvcmxkPiAmIG1vcmU=","messageID":")" + id
                                    + R"(","insertionTime":"T","metadata":{"team":"\u003ca\u003e"}})")
    << e.data;
  ASSERT_TRUE(test::eventually([&] { return server()->message_count(queue) == 0; }));
  EXPECT_TRUE(failed().empty()) << failed();
}

TEST_F(azure_queue_storage, json_body_publishes_the_json_itself) {
  add().json_body = true;
  auto source = start();
  auto id = server()->put_message(queue, R"({ "a": [1, 2], "b": "<x>" })");
  ASSERT_TRUE(bus->arrived(1));
  EXPECT_EQ(without_time(bus->data().front()),
            R"({"body":{"a":[1,2],"b":"\u003cx\u003e"},"messageID":")" + id
              + R"(","insertionTime":"T"})");
}

TEST_F(azure_queue_storage, decode_message_reads_base64_before_json_body) {
  auto& e = add();
  e.decode_message = true;
  e.json_body = true;
  auto source = start();
  server()->put_message(queue, "eyJhIjoifj8ifQ=="); // {"a":"~?"}
  ASSERT_TRUE(bus->arrived(1));
  EXPECT_NE(bus->data().front().find(R"({"body":{"a":"~?"},)"), std::string::npos)
    << bus->data().front();
}

TEST_F(azure_queue_storage, a_refused_message_is_offered_again_and_deleted_once_accepted) {
  add();
  bus->refuse_next(2);
  auto source = start();
  server()->put_message(queue, "x");
  ASSERT_TRUE(bus->arrived(1));
  EXPECT_EQ(bus->refused(), 2);
  ASSERT_TRUE(test::eventually([&] { return server()->message_count(queue) == 0; }));
  EXPECT_EQ(bus->events().size(), 1u);
}

TEST_F(azure_queue_storage, a_message_the_bus_keeps_refusing_is_never_deleted_and_comes_back) {
  add();
  auto opts = fast();
  opts.visibility_timeout = 1s;
  bus->answer(core::publish_status::saturated);
  auto source = start(opts);
  auto id = server()->put_message(queue, "x");
  // Received, refused past its visibility timeout, visible again: the queue hands it out anew.
  ASSERT_TRUE(test::eventually([&] {
    for (const auto& m : server()->peek(queue))
      if (m.id == id && m.dequeue_count >= 2)
        return true;
    return false;
  }));
  EXPECT_EQ(server()->message_count(queue), 1);
  bus->answer(core::publish_status::accepted);
  ASSERT_TRUE(bus->arrived(1));
  ASSERT_TRUE(test::eventually([&] { return server()->message_count(queue) == 0; }));
}

TEST_F(azure_queue_storage, a_message_the_filter_drops_is_deleted) {
  add();
  bus->answer(core::publish_status::filtered);
  auto source = start();
  server()->put_message(queue, "x");
  ASSERT_TRUE(test::eventually([&] { return server()->message_count(queue) == 0; }));
  EXPECT_EQ(bus->size(), 0u);
}

TEST_F(azure_queue_storage, a_message_that_is_not_json_is_deleted_without_dlq) {
  add().json_body = true;
  auto source = start();
  server()->put_message(queue, "not json");
  ASSERT_TRUE(test::eventually([&] { return server()->message_count(queue) == 0; }));
  server()->put_message(queue, "{}");
  ASSERT_TRUE(bus->arrived(1));
  EXPECT_EQ(bus->events().size(), 1u);
}

TEST_F(azure_queue_storage, with_dlq_a_message_that_is_not_base64_stays_for_the_poison_handling) {
  auto& e = add();
  e.decode_message = true;
  e.dlq = true;
  auto opts = fast();
  opts.visibility_timeout = 1s;
  auto source = start(opts);
  auto bad = server()->put_message(queue, "not base64!");
  ASSERT_TRUE(test::eventually([&] {
    for (const auto& m : server()->peek(queue))
      if (m.id == bad && m.dequeue_count >= 2)
        return true;
    return false;
  }));
  server()->put_message(queue, "eA==");
  ASSERT_TRUE(bus->arrived(1));
  EXPECT_EQ(bus->events().size(), 1u);
  EXPECT_NE(bus->data().front().find(R"("body":"eA==")"), std::string::npos);
}

TEST_F(azure_queue_storage, a_shared_access_signature_authorizes_without_a_key) {
  write_connection_string("QueueEndpoint=" + server()->queue_endpoint()
                          + ";SharedAccessSignature=" + server()->account_sas());
  add();
  auto source = start();
  server()->put_message(queue, "x");
  ASSERT_TRUE(bus->arrived(1));
  ASSERT_TRUE(test::eventually([&] { return server()->message_count(queue) == 0; }));
}

TEST_F(azure_queue_storage, a_missing_queue_fails_the_source_with_azures_reason) {
  add().queue_name = "no-such-queue";
  auto opts = fast();
  opts.lost_after = 300ms;
  auto source = start(opts);
  ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }));
  EXPECT_NE(failed().find("HTTP 404 QueueNotFound: The specified queue does not exist."),
            std::string::npos)
    << failed();
  EXPECT_NE(failed().find("no-such-queue"), std::string::npos) << failed();
}

TEST_F(azure_queue_storage, a_wrong_key_fails_the_source_with_azures_reason) {
  write_connection_string("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
                          "AccountKey=d3Jvbmc=;QueueEndpoint="
                          + server()->queue_endpoint());
  add();
  auto opts = fast();
  opts.lost_after = 300ms;
  auto source = start(opts);
  ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }));
  EXPECT_NE(failed().find("HTTP 403"), std::string::npos) << failed();
  EXPECT_EQ(failed().find("d3Jvbmc"), std::string::npos) << failed();
}

TEST_F(azure_queue_storage, a_bad_connection_string_fails_the_start_naming_the_field) {
  write_connection_string("AccountName=devstoreaccount1");
  add();
  try {
    start();
    FAIL() << "started";
  } catch (const core::source_error& e) {
    EXPECT_NE(std::string(e.what()).find("azureQueueStorage.e.connectionString: connection "
                                         "string needs either AccountKey or "
                                         "SharedAccessSignature"),
              std::string::npos)
      << e.what();
  }
}

TEST_F(azure_queue_storage, the_endpoint_going_away_and_returning_loses_nothing) {
  add();
  test::log_capture log;
  auto source = start();
  server()->put_message(queue, "before");
  ASSERT_TRUE(bus->arrived(1));
  ASSERT_TRUE(test::eventually([&] { return server()->message_count(queue) == 0; }));
  server()->stop();
  ASSERT_TRUE(test::eventually([&] { return log.count(queue + " failed") > 0; }))
    << ::testing::PrintToString(log.lines("storage/e"));
  server()->start();
  server()->put_message(queue, "after");
  ASSERT_TRUE(bus->arrived(2));
  EXPECT_NE(bus->data()[1].find(R"("body":"YWZ0ZXI=")"), std::string::npos);
  EXPECT_TRUE(failed().empty()) << failed();
}

TEST_F(azure_queue_storage, the_source_fails_with_the_reason_when_the_endpoint_stays_away) {
  write_connection_string("DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;"
                          "AccountKey=d3Jvbmc=;QueueEndpoint=http://127.0.0.1:"
                          + std::to_string(test::free_port()) + "/devstoreaccount1");
  add();
  auto opts = fast();
  opts.lost_after = 300ms;
  auto source = start(opts);
  ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }));
  EXPECT_NE(failed().find("failing for"), std::string::npos) << failed();
  EXPECT_NE(failed().find("Couldn't connect"), std::string::npos) << failed();
}

} // namespace
