// The pubSub source against the real Pub/Sub emulator (started once per test process, so once
// for the binary run alone and once per test under ctest; not for the stand-in tests): Argo's
// subscription preparation, event data byte for byte, `:acknowledge` only after the bus
// accepted, a refused message nacked and delivered again, deleteSubscriptionOnFinish,
// PUBSUB_EMULATOR_HOST, an unreachable Pub/Sub; and against http_sink stand-ins, the service
// account's token exchange and bearer token.
//
// The emulator comes with the machine (gcloud's pubsub-emulator component); where it is not
// installed the tests are skipped, saying so, except under CI=true, where they fail.

#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>

#include <nlohmann/json.hpp>

#include "eventually.hpp"
#include "files.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/gcp/spec.hpp"
#include "ganglion/gcp/transport.hpp"
#include "ganglion/http/client.hpp"
#include "github_server.hpp"
#include "http_sink.hpp"
#include "kind_manifests.hpp"
#include "pubsub_emulator.hpp"
#include "recording_bus.hpp"
#include "source/event_data.hpp"
#include "tcp_proxy.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

constexpr const char* project = "proj-test";

class pubsub : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    std::string why;
    if (test::pubsub_emulator_script(why).empty()) {
      skip_reason() = why;
      return;
    }
    emulator() = std::make_unique<test::pubsub_emulator>();
  }
  static void TearDownTestSuite() { emulator().reset(); }

  void SetUp() override {
    if (!emulator()) {
      if (std::getenv("CI"))
        FAIL() << skip_reason() << " (CI=true: the machine must have it)";
      GTEST_SKIP() << skip_reason();
    }
    es.metadata.name = "gcp";
  }

  static std::unique_ptr<test::pubsub_emulator>& emulator() {
    static std::unique_ptr<test::pubsub_emulator> e;
    return e;
  }
  static std::string& skip_reason() {
    static std::string why;
    return why;
  }

  gcp::options fast() const {
    gcp::options o;
    o.emulator_host = emulator() ? emulator()->host() : "";
    o.min_retry_delay = 20ms;
    o.max_retry_delay = 200ms;
    o.empty_pull_delay = 20ms;
    o.pull_timeout = 5s;
    return o;
  }

  test::event_under_test<gcp::event_spec>& add(const std::string& name) {
    auto& e = events[name];
    e.project_id = project;
    return e;
  }

  std::unique_ptr<core::source> start(const std::string& name, gcp::options opts) {
    for (const auto& [event, spec] : events)
      test::put_event(es, "pubSub", event, spec);
    core::source_context ctx;
    ctx.event_source_name = es.metadata.name;
    ctx.event_name = name;
    ctx.type = "pubSub";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.metrics = &metrics;
    ctx.secrets = std::make_shared<core::secret_store>(secrets);
    ctx.fail = [this](const std::string& why) {
      std::lock_guard guard{mutex};
      failure = why;
    };
    return gcp::make_source_factory(requests, std::move(opts))(ctx);
  }
  std::unique_ptr<core::source> start(const std::string& name) { return start(name, fast()); }

  std::string start_error(const std::string& name, gcp::options opts) {
    try {
      start(name, std::move(opts));
    } catch (const core::source_error& e) {
      return e.what();
    }
    return "started";
  }

  std::string failed() {
    std::lock_guard guard{mutex};
    return failure;
  }

  /// The event data expected for a message, with the publish time the event carries (checked
  /// to be Go's time.Time.String() in UTC).
  static std::string publish_time_of(const std::string& data) {
    static const std::regex go_time{
      R"re("publishTime":"(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d*[1-9])? \+0000 UTC)")re"};
    std::smatch m;
    return std::regex_search(data, m, go_time) ? m[1].str() : std::string{"(none)"};
  }

  std::shared_ptr<http::client> requests = std::make_shared<http::client>();
  std::string secrets = test::temp_dir();
  dsl::event_source es;
  std::map<std::string, test::event_under_test<gcp::event_spec>> events;
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  std::mutex mutex;
  std::string failure;
};

TEST_F(pubsub, creates_topic_and_derived_subscription_and_publishes_argos_event_data) {
  auto& e = add("created");
  e.topic = "topic-created";
  e.metadata = {{"team", "a<b"}};
  auto source = start("created");
  // Argo's derived name: <event>-<fnv32a of the event and its spec> (unit-tested byte for byte).
  auto sub = gcp::detail::subscription_id(events["created"], "created", std::nullopt);
  ASSERT_EQ(sub.rfind("created-", 0), 0u) << sub;
  ASSERT_EQ(emulator()->subscription_topic(project, sub),
            std::string{"projects/"} + project + "/topics/topic-created");
  auto id = emulator()->publish(project, "topic-created", std::string("h\xffi\n", 4),
                                {{"z", "last"}, {"a", "<&>"}});
  auto got = bus->wait_for(1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, "pubsub"); // Argo's EventSourceType PubSubEvent
  EXPECT_EQ(got[0].subject, "created");
  EXPECT_EQ(got[0].data, R"({"id":")" + id
                           + R"(","body":"aP9pCg==","attributes":{)"
                             R"("a":"\u003c\u0026\u003e","z":"last"},"publishTime":")"
                           + publish_time_of(got[0].data) + R"(","metadata":{"team":"a\u003cb"}})");
}

TEST_F(pubsub, json_body_from_an_existing_subscription_named_without_topic) {
  emulator()->create_topic(project, "topic-json");
  emulator()->create_subscription(project, "sub-json",
                                  std::string{"projects/"} + project + "/topics/topic-json");
  auto& e = add("json");
  e.subscription_id = "sub-json";
  e.json_body = true;
  auto source = start("json");
  auto id = emulator()->publish(project, "topic-json", R"({ "a" : [1, "<"] })");
  auto not_json = emulator()->publish(project, "topic-json", "not json");
  auto got = bus->wait_for(1);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].data, R"({"id":")" + id
                           + R"(","body":{"a":[1,"\u003c"]},"attributes":null,)"
                             R"("publishTime":")"
                           + publish_time_of(got[0].data) + R"("})");
  // The message that is not JSON is not acknowledged (Argo nacks it; ganglion lets its ack
  // deadline pass, so a poison message is not redelivered in a tight loop): never an event.
  EXPECT_FALSE(test::eventually([&] { return bus->size() > 1; }, 500ms));
  (void)not_json;
}

TEST_F(pubsub, acknowledges_after_the_bus_accepted_and_a_refused_message_comes_again) {
  auto& e = add("acks");
  e.topic = "topic-acks";
  e.subscription_id = "sub-acks";
  auto source = start("acks");
  bus->refuse_next(1);
  auto first = emulator()->publish(project, "topic-acks", "first");
  // Refused, nacked (`:modifyAckDeadline` 0), delivered again at once (well before the 10 s
  // ack deadline would bring it back), then accepted.
  auto got = bus->wait_for(1, 5s);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(bus->refused(), 1u);
  EXPECT_NE(got[0].data.find(R"("id":")" + first + "\""), std::string::npos);
  auto second = emulator()->publish(project, "topic-acks", "second");
  ASSERT_EQ(bus->wait_for(2).size(), 2u);
  // Acknowledged: nothing comes again once the ack deadline (10 s) has passed.
  EXPECT_FALSE(test::eventually([&] { return bus->size() > 2; }, 12s));
  source.reset();
  EXPECT_TRUE(emulator()->pull_now(project, "sub-acks").empty());
  EXPECT_NE(bus->data()[1].find(R"("id":")" + second + "\""), std::string::npos);
}

TEST_F(pubsub, setup_follows_argos_table_and_its_errors) {
  add("missing").subscription_id = "sub-missing";
  EXPECT_NE(start_error("missing", fast())
              .find(std::string{"you need to specify topicID to create missing subscription "
                                "projects/"}
                    + project + "/subscriptions/sub-missing"),
            std::string::npos);

  emulator()->create_topic(project, "topic-other");
  emulator()->create_subscription(project, "sub-other",
                                  std::string{"projects/"} + project + "/topics/topic-other");
  auto& wrong = add("wrong");
  wrong.subscription_id = "sub-other";
  wrong.topic = "topic-mine";
  auto error = start_error("wrong", fast());
  EXPECT_NE(error.find(std::string{"this subscription belongs to wrong topic projects/"} + project
                       + "/topics/topic-other"),
            std::string::npos)
    << error;
  EXPECT_NE(error.find("pubSub source gcp/wrong: failed to prepare client or subscription"),
            std::string::npos)
    << error;

  // The topic in another project (topicProjectID), created with the subscription.
  auto& other = add("other-project");
  other.topic = "topic-far";
  other.topic_project_id = "proj-topics";
  other.subscription_id = "sub-far";
  auto source = start("other-project");
  EXPECT_EQ(emulator()->subscription_topic(project, "sub-far"),
            "projects/proj-topics/topics/topic-far");
}

TEST_F(pubsub, delete_subscription_on_finish_deletes_it_when_the_source_stops) {
  auto& e = add("finish");
  e.topic = "topic-finish";
  e.subscription_id = "sub-finish";
  e.delete_subscription_on_finish = true;
  auto source = start("finish");
  ASSERT_TRUE(emulator()->subscription_topic(project, "sub-finish"));
  source.reset();
  EXPECT_FALSE(emulator()->subscription_topic(project, "sub-finish"));
}

TEST_F(pubsub, pubsub_emulator_host_is_honoured) {
  auto& e = add("env");
  e.topic = "topic-env";
  e.subscription_id = "sub-env";
  auto opts = fast();
  opts.emulator_host.reset();
  opts.api_url = "https://pubsub.invalid"; // never used: the variable wins
  ::setenv("PUBSUB_EMULATOR_HOST", emulator()->host().c_str(), 1);
  auto source = start("env", opts);
  ::unsetenv("PUBSUB_EMULATOR_HOST");
  emulator()->publish(project, "topic-env", "x");
  EXPECT_EQ(bus->wait_for(1).size(), 1u);
}

TEST_F(pubsub, unreachable_pubsub_is_an_error_with_the_reason_never_a_hot_loop) {
  auto opts = fast();
  opts.emulator_host = "127.0.0.1:" + std::to_string(test::free_port());
  add("down").subscription_id = "sub-down";
  auto error = start_error("down", opts);
  EXPECT_NE(error.find("pubSub source gcp/down: failed to prepare client or subscription for "
                       "down, failed to check if subscription projects/proj-test/subscriptions/"
                       "sub-down exists: GET /v1/projects/proj-test/subscriptions/sub-down: "),
            std::string::npos)
    << error;

  // Cut while running: retried with backoff, and delivering again once Pub/Sub is back.
  test::tcp_proxy line{emulator()->port()};
  opts = fast();
  opts.emulator_host = line.address();
  auto& back = add("back");
  back.topic = "topic-back";
  back.subscription_id = "sub-back";
  auto source = start("back", opts);
  line.drop();
  EXPECT_TRUE(test::eventually([&] { return line.connections() == 0; }, 1s));
  EXPECT_FALSE(test::eventually([&] { return bus->size() > 0; }, 500ms));
  line.restore();
  // Published once the line is back: a message published while it was cut may have been handed
  // to the pull the cut ended, and the emulator gives it again only after its ack deadline.
  emulator()->publish(project, "topic-back", "after the cut");
  EXPECT_EQ(bus->wait_for(1, 15s).size(), 1u);
  EXPECT_EQ(failed(), "");
  source.reset();

  // Lost for longer than lost_after: the source fails with the reason.
  opts.lost_after = 1s;
  auto& e = add("lost");
  e.topic = "topic-lost";
  e.subscription_id = "sub-lost";
  source = start("lost", opts);
  line.drop();
  ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }, 15s));
  EXPECT_NE(failed().find("pubSub source gcp/lost: Pub/Sub failing for "), std::string::npos)
    << failed();
  EXPECT_NE(failed().find("POST /v1/projects/proj-test/subscriptions/sub-lost:pull"),
            std::string::npos)
    << failed();
}

/// The tests that need no emulator (it is not started for them).
class pubsub_stand_in : public pubsub {
protected:
  static void SetUpTestSuite() {}
  void SetUp() override { es.metadata.name = "gcp"; }
};

// The service account path, against two stand-ins: http_sink as Google's token endpoint (it
// records the JWT-bearer request) and as the Pub/Sub API (it records the bearer token).
TEST_F(pubsub_stand_in, a_service_account_key_is_exchanged_for_a_token_sent_as_bearer) {
  test::http_sink token_endpoint;
  token_endpoint.set_answer(
    R"({"access_token":"ya29.test","expires_in":3600,"token_type":"Bearer"})");
  test::http_sink api;
  api.set_answer(R"({"permissions":["pubsub.subscriptions.consume"]})");
  auto keys = test::make_rsa_key_pair();
  nlohmann::json key{{"type", "service_account"},
                     {"private_key_id", "kid-1"},
                     {"private_key", keys.private_pem},
                     {"client_email", "svc@proj-test.iam.gserviceaccount.com"},
                     {"token_uri", token_endpoint.url("/token")}};
  test::write_file(secrets + "/gcp/key.json", key.dump());
  auto& e = add("auth");
  e.subscription_id = "sub-auth";
  e.credential_secret = dsl::secret_key_selector{"gcp", "key.json"};
  auto opts = fast();
  opts.emulator_host = "";
  opts.api_url = api.url("/");
  auto source = start("auth", opts);
  ASSERT_TRUE(api.wait_for(3, 10s));
  source.reset();

  auto tokens = token_endpoint.requests();
  ASSERT_EQ(tokens.size(), 1u); // cached for every later call
  EXPECT_EQ(tokens[0].method, "POST");
  EXPECT_EQ(tokens[0].target, "/token");
  EXPECT_EQ(tokens[0].header("Content-Type"), "application/x-www-form-urlencoded");
  const std::string prefix =
    "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=";
  ASSERT_EQ(tokens[0].body.rfind(prefix, 0), 0u) << tokens[0].body;
  std::string claims;
  ASSERT_EQ(test::verify_rs256_jwt(tokens[0].body.substr(prefix.size()), keys.public_pem, &claims),
            "");
  auto c = nlohmann::json::parse(claims);
  EXPECT_EQ(c["iss"], "svc@proj-test.iam.gserviceaccount.com");
  EXPECT_EQ(c["aud"], token_endpoint.url("/token"));
  EXPECT_EQ(
    c["scope"],
    "https://www.googleapis.com/auth/pubsub https://www.googleapis.com/auth/cloud-platform");

  auto calls = api.requests();
  EXPECT_EQ(calls[0].method, "POST");
  EXPECT_EQ(calls[0].target, "/v1/projects/proj-test/subscriptions/sub-auth:testIamPermissions");
  EXPECT_EQ(calls[0].body, R"({"permissions":["pubsub.subscriptions.consume"]})");
  EXPECT_EQ(calls[1].target, "/v1/projects/proj-test/subscriptions/sub-auth:pull");
  EXPECT_EQ(calls[1].body, R"({"maxMessages":100})");
  for (const auto& call : calls)
    EXPECT_EQ(call.header("Authorization"), "Bearer ya29.test") << call.target;
}

TEST_F(pubsub_stand_in, without_credentials_or_emulator_the_source_says_why) {
  add("nocreds").subscription_id = "sub-nocreds";
  auto opts = fast();
  opts.emulator_host = "";
  ::unsetenv("GOOGLE_APPLICATION_CREDENTIALS");
  EXPECT_EQ(start_error("nocreds", opts),
            "no credentialSecret, and neither PUBSUB_EMULATOR_HOST nor "
            "GOOGLE_APPLICATION_CREDENTIALS is set: ganglion does not use Workload Identity or "
            "the GCP metadata server");
}

} // namespace
