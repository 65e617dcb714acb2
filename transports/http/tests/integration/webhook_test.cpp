// The webhook source on a real server, with a bus that records what it is offered.

#include <future>
#include <mutex>
#include <regex>
#include <thread>

#include <curl/curl.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/http/spec.hpp"
#include "ganglion/http/webhook.hpp"
#include "kind_manifests.hpp"
#include "test_support.hpp"

using namespace ganglion;
using namespace std::chrono_literals;
using json = nlohmann::json;

namespace {

/// A bus that keeps every event and answers with a settable status, optionally slowly.
class recording_bus : public core::bus_publisher {
public:
  void publish(core::event&& e, core::publish_done done) override {
    std::this_thread::sleep_for(delay);
    core::publish_status outcome = status;
    {
      std::lock_guard guard{mutex_};
      if (outcome == core::publish_status::accepted) {
        events_.push_back(std::move(e));
        returned_.push_back(std::chrono::steady_clock::now());
      }
    }
    done(outcome, outcome == core::publish_status::failed ? "disk full" : "");
  }
  std::vector<core::event> events() const {
    std::lock_guard guard{mutex_};
    return events_;
  }
  std::vector<std::chrono::steady_clock::time_point> returned() const {
    std::lock_guard guard{mutex_};
    return returned_;
  }
  std::atomic<core::publish_status> status{core::publish_status::accepted};
  std::chrono::milliseconds delay{0};

private:
  mutable std::mutex mutex_;
  std::vector<core::event> events_;
  std::vector<std::chrono::steady_clock::time_point> returned_;
};

/// Status and raw response header block of one request.
struct raw_response {
  long status = 0;
  std::string headers;
};

std::size_t collect(char* data, std::size_t size, std::size_t n, void* out) {
  static_cast<std::string*>(out)->append(data, size * n);
  return size * n;
}

raw_response request_with_headers(const std::string& method, const std::string& url) {
  raw_response result;
  std::string body;
  CURL* h = curl_easy_init();
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method.c_str());
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 10000L);
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, collect);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &result.headers);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &body);
  if (curl_easy_perform(h) == CURLE_OK)
    curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &result.status);
  curl_easy_cleanup(h);
  return result;
}

class http_webhook : public ::testing::Test {
protected:
  void SetUp() override {
    port = test::free_port();
    secrets_dir = test::temp_dir();
    es.metadata.name = "webhook";
    hook.endpoint = "/example";
    hook.method = "POST";
    hook.port = std::to_string(port);
  }

  std::unique_ptr<core::source> start(std::string event = "example") {
    test::put_event(es, "webhook", event, hook);
    core::source_context ctx;
    ctx.event_source_name = es.metadata.name;
    ctx.event_name = event;
    ctx.type = "webhook";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.secrets = std::make_shared<core::secret_store>(secrets_dir);
    ctx.metrics = &metrics;
    return core::start_source(factory, ctx);
  }

  std::string url(const std::string& path_and_query = "/example") const {
    return "http://127.0.0.1:" + std::to_string(port) + path_and_query;
  }

  std::uint64_t rejected(const std::string& reason) {
    return metrics
      .get_counter("ganglion_events_rejected_total", "",
                   {{"eventsource", "webhook"}, {"event", "example"}, {"reason", reason}})
      .value();
  }

  std::uint64_t counted(const std::string& family) {
    return metrics.get_counter(family, "", {{"eventsource", "webhook"}, {"event", "example"}})
      .value();
  }

  json only_event_data() {
    auto events = bus->events();
    EXPECT_EQ(events.size(), 1u);
    return events.empty() ? json{} : json::parse(events.front().data);
  }

  std::shared_ptr<http::server_pool> servers = std::make_shared<http::server_pool>();
  core::source_factory factory = http::make_webhook_source_factory(servers, "127.0.0.1");
  std::shared_ptr<recording_bus> bus = std::make_shared<recording_bus>();
  core::metrics_registry metrics;
  dsl::event_source es;
  test::event_under_test<http::webhook_spec> hook;
  std::uint16_t port = 0;
  std::string secrets_dir;
};

TEST_F(http_webhook, post_json_becomes_a_cloudevent) {
  hook.metadata = {{"team", "ops"}};
  auto source = start();
  auto res = test::http_request("POST", url(), R"({ "a": 1, "b": [true, null] })",
                                {"content-type: application/json", "x-custom-header: one",
                                 "X-CUSTOM-HEADER: two"});
  ASSERT_EQ(res.status, 200) << res.error << res.body;
  EXPECT_EQ(res.body, "success");

  auto events = bus->events();
  ASSERT_EQ(events.size(), 1u);
  const auto& e = events.front();
  EXPECT_TRUE(std::regex_match(e.id, std::regex{"[0-9a-f]{32}"})) << e.id;
  EXPECT_EQ(e.source, "webhook");
  EXPECT_EQ(e.type, "webhook");
  EXPECT_EQ(e.subject, "example");
  EXPECT_EQ(e.datacontenttype, "application/json");
  EXPECT_EQ(e.specversion, "1.0");
  EXPECT_TRUE(std::regex_match(e.time, std::regex{R"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z)"}))
    << e.time;

  auto data = json::parse(e.data);
  EXPECT_EQ(data["body"], json::parse(R"({"a":1,"b":[true,null]})"));
  EXPECT_NE(e.data.find(R"("body":{"a":1,"b":[true,null]})"), std::string::npos) << e.data;
  EXPECT_EQ(data["header"]["Content-Type"], json::array({"application/json"}));
  EXPECT_EQ(data["header"]["X-Custom-Header"], json::array({"one", "two"}));
  EXPECT_FALSE(data["header"].contains("Host"));
  EXPECT_EQ(data["metadata"], json::parse(R"({"team":"ops"})"));
  EXPECT_EQ(counted("ganglion_events_received_total"), 1u);
  EXPECT_EQ(counted("ganglion_events_accepted_total"), 1u);
}

TEST_F(http_webhook, metadata_is_left_out_when_empty) {
  auto source = start();
  ASSERT_EQ(test::http_request("POST", url(), "[1]", {"Content-Type: application/json"}).status,
            200);
  auto data = only_event_data();
  EXPECT_FALSE(data.contains("metadata"));
  EXPECT_EQ(data["body"], json::array({1}));
}

TEST_F(http_webhook, get_publishes_the_query) {
  hook.method = "GET";
  auto source = start();
  auto res = test::http_request("GET", url("/example?x=1&x=2&name=a+b%21&flag"));
  ASSERT_EQ(res.status, 200) << res.body;
  auto data = only_event_data();
  EXPECT_EQ(data["body"], json::parse(R"({"flag":[""],"name":["a b!"],"x":["1","2"]})"));
}

TEST_F(http_webhook, form_post_publishes_the_form_values) {
  auto source = start();
  auto res = test::http_request("POST", url(), "name=a+b&n=1&n=2",
                                {"Content-Type: application/x-www-form-urlencoded"});
  ASSERT_EQ(res.status, 200) << res.body;
  auto data = only_event_data();
  EXPECT_EQ(data["body"], json::parse(R"({"n":["1","2"],"name":["a b"]})"));
}

TEST_F(http_webhook, invalid_json_is_400) {
  auto source = start();
  // libcurl labels a body without Content-Type as a form, as `curl -d` does.
  std::vector<std::string> as_json{"Content-Type: application/json"};
  auto res = test::http_request("POST", url(), R"({"a": )", as_json);
  EXPECT_EQ(res.status, 400);
  EXPECT_NE(res.body.find("not valid JSON"), std::string::npos) << res.body;
  EXPECT_EQ(test::http_request("POST", url(), "", as_json).status, 400);
  EXPECT_TRUE(bus->events().empty());
  EXPECT_EQ(rejected("bad_request"), 2u);
}

TEST_F(http_webhook, wrong_method_is_405_with_allow) {
  auto source = start();
  auto res = request_with_headers("PUT", url());
  EXPECT_EQ(res.status, 405);
  EXPECT_NE(res.headers.find("Allow: POST"), std::string::npos) << res.headers;
  EXPECT_EQ(rejected("method"), 1u);
}

TEST_F(http_webhook, unknown_endpoint_is_404) {
  auto source = start();
  EXPECT_EQ(test::http_request("POST", url("/other"), "{}").status, 404);
  EXPECT_EQ(test::http_request("GET", url("/health")).status, 200);
}

TEST_F(http_webhook, bearer_token_is_checked_and_masked) {
  test::write_file(secrets_dir + "/hook-auth/token", "s3cret\n");
  hook.auth_secret = dsl::secret_key_selector{"hook-auth", "token"};
  auto source = start();
  EXPECT_EQ(test::http_request("POST", url(), "{}").status, 401);
  EXPECT_EQ(test::http_request("POST", url(), "{}", {"Authorization: Bearer wrong"}).status, 401);
  EXPECT_EQ(test::http_request("POST", url(), "{}", {"Authorization: Basic s3cret"}).status, 401);
  // Authentication comes first: a stranger learns nothing about the endpoint's method.
  EXPECT_EQ(request_with_headers("PUT", url()).status, 401);
  EXPECT_EQ(rejected("unauthorized"), 4u);
  EXPECT_EQ(rejected("method"), 0u);
  auto ok = test::http_request("POST", url(), "{}", {"Authorization: Bearer s3cret"});
  ASSERT_EQ(ok.status, 200) << ok.body;
  auto data = only_event_data();
  EXPECT_EQ(data["header"]["Authorization"], json::array({"*** Masked Auth Secret ***"}));
}

TEST_F(http_webhook, missing_auth_secret_fails_start_naming_the_file) {
  hook.auth_secret = dsl::secret_key_selector{"absent", "token"};
  try {
    auto source = start();
    FAIL() << "expected source_error";
  } catch (const core::source_error& e) {
    EXPECT_NE(std::string(e.what()).find(secrets_dir + "/absent/token"), std::string::npos)
      << e.what();
  }
}

TEST_F(http_webhook, body_over_max_payload_size_is_413) {
  hook.max_payload_size = 64;
  auto source = start();
  auto res = test::http_request("POST", url(), R"({"text":")" + std::string(100, 'x') + R"("})");
  EXPECT_EQ(res.status, 413);
  EXPECT_TRUE(bus->events().empty());
  EXPECT_EQ(rejected("too_large"), 1u);
}

TEST_F(http_webhook, saturated_bus_is_503_with_retry_after) {
  auto source = start();
  bus->status = core::publish_status::saturated;
  auto saturated = test::http_request("POST", url(), "{}");
  EXPECT_EQ(saturated.status, 503);
  EXPECT_EQ(rejected("saturated"), 1u);
  bus->status = core::publish_status::stopped;
  EXPECT_EQ(test::http_request("POST", url(), "{}").status, 503);
  EXPECT_EQ(rejected("stopped"), 1u);
  bus->status = core::publish_status::accepted;
  EXPECT_EQ(test::http_request("POST", url(), "{}").status, 200);
}

TEST_F(http_webhook, a_bus_that_cannot_store_the_event_is_503_with_the_reason) {
  auto source = start();
  bus->status = core::publish_status::failed;
  auto res = test::http_request("POST", url(), "{}");
  EXPECT_EQ(res.status, 503);
  EXPECT_NE(res.body.find("could not store the event (disk full)"), std::string::npos) << res.body;
  EXPECT_EQ(rejected("store_failed"), 1u);
}

TEST_F(http_webhook, retry_after_header_on_503) {
  hook.method = "GET";
  auto source = start();
  bus->status = core::publish_status::saturated;
  auto res = request_with_headers("GET", url());
  EXPECT_EQ(res.status, 503);
  EXPECT_NE(res.headers.find("Retry-After: 1"), std::string::npos) << res.headers;
}

TEST_F(http_webhook, answers_only_after_the_bus_accepted) {
  bus->delay = 300ms;
  auto source = start();
  auto res = test::http_request("POST", url(), "{}");
  auto answered = std::chrono::steady_clock::now();
  ASSERT_EQ(res.status, 200);
  auto returned = bus->returned();
  ASSERT_EQ(returned.size(), 1u);
  EXPECT_LE(returned.front(), answered);
}

TEST_F(http_webhook, requests_to_one_endpoint_run_concurrently) {
  http::server_options settings;
  settings.threads = 4;
  servers = std::make_shared<http::server_pool>(settings);
  factory = http::make_webhook_source_factory(servers, "127.0.0.1");
  bus->delay = 400ms;
  auto source = start();
  auto begin = std::chrono::steady_clock::now();
  std::vector<std::future<test::http_response>> calls;
  for (int i = 0; i < 4; ++i)
    calls.push_back(std::async(std::launch::async,
                               [&] { return test::http_request("POST", url(), "{}"); }));
  for (auto& c : calls)
    EXPECT_EQ(c.get().status, 200);
  EXPECT_LT(std::chrono::steady_clock::now() - begin, 1200ms);
  EXPECT_EQ(bus->events().size(), 4u);
}

TEST_F(http_webhook, filter_expression_drops_what_it_rejects_and_answers_success) {
  hook.filter = dsl::event_source_filter{R"(body.id == 4 && body.name != "Joe")"};
  auto source = start();
  auto post = [&](const std::string& body) {
    return test::http_request("POST", url(), body, {"Content-Type: application/json"});
  };
  auto joe = post(R"({"id":4,"name":"Joe"})");
  EXPECT_EQ(joe.status, 200);
  EXPECT_EQ(joe.body, "success");
  EXPECT_EQ(post(R"({"name":"Bo"})").status, 200);
  EXPECT_EQ(post(R"({"id":4,"name":"Ann"})").status, 200);

  EXPECT_EQ(only_event_data()["body"]["name"], "Ann");
  EXPECT_EQ(rejected("filtered"), 1u);
  EXPECT_EQ(rejected("filter_error"), 1u);
  EXPECT_EQ(counted("ganglion_events_received_total"), 3u);
  EXPECT_EQ(counted("ganglion_events_accepted_total"), 1u);
}

TEST_F(http_webhook, filter_expression_that_does_not_compile_refuses_to_start) {
  hook.filter = dsl::event_source_filter{"body.a =="};
  try {
    start();
    FAIL() << "expected a source_error";
  } catch (const core::source_error& e) {
    EXPECT_NE(std::string(e.what()).find("webhook source webhook/example: filter.expression"),
              std::string::npos)
      << e.what();
  }
}

TEST_F(http_webhook, bad_port_is_refused) {
  hook.port = "http";
  EXPECT_THROW(start(), core::source_error);
}

TEST_F(http_webhook, port_in_use_fails_start) {
  auto first = start();
  hook.endpoint = "/second";
  auto other_factory =
    http::make_webhook_source_factory(std::make_shared<http::server_pool>(), "127.0.0.1");
  test::put_event(es, "webhook", "second", hook);
  core::source_context ctx;
  ctx.event_source_name = "webhook";
  ctx.event_name = "second";
  ctx.type = "webhook";
  ctx.manifest = &es;
  ctx.bus = bus;
  try {
    other_factory(ctx);
    FAIL() << "expected source_error";
  } catch (const core::source_error& e) {
    EXPECT_NE(std::string(e.what()).find("already in use"), std::string::npos) << e.what();
  }
}

TEST_F(http_webhook, two_events_share_a_port) {
  auto first = start("example");
  hook.endpoint = "/second";
  auto second = start("second");
  EXPECT_EQ(test::http_request("POST", url("/example"), "{}").status, 200);
  EXPECT_EQ(test::http_request("POST", url("/second"), "{}").status, 200);
  auto events = bus->events();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].subject, "example");
  EXPECT_EQ(events[1].subject, "second");
}

TEST_F(http_webhook, destroying_the_source_removes_its_route) {
  auto source = start();
  EXPECT_EQ(test::http_request("POST", url(), "{}").status, 200);
  source.reset();
  EXPECT_EQ(test::http_request("POST", url(), "{}").status, 0);
  auto again = start();
  EXPECT_EQ(test::http_request("POST", url(), "{}").status, 200);
}

} // namespace
