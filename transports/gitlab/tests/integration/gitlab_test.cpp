// The gitlab source on a real server: deliveries with the secret token become Argo's event
// data, others are refused and counted; the hooks of groups and projects are kept through a
// GitLab API stand-in (tests/support/gitlab_server: the exact requests checked) and deleted
// when the source stops; an API that refuses or is down puts the source in Error with the
// reason, without a hot loop.

#include <memory>
#include <mutex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "eventually.hpp"
#include "files.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/gitlab/spec.hpp"
#include "ganglion/gitlab/transport.hpp"
#include "gitlab_server.hpp"
#include "http_request.hpp"
#include "http_sink.hpp"
#include "kind_manifests.hpp"
#include "recording_bus.hpp"

using namespace ganglion;
using json = nlohmann::json;

namespace {

class gitlab_source : public ::testing::Test {
protected:
  test::gitlab_server api{"glpat-123"};
  std::shared_ptr<http::runtime> rt = std::make_shared<http::runtime>([] {
    http::runtime_options o;
    o.bind_host = "127.0.0.1";
    return o;
  }());
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  std::string secrets_dir = test::temp_dir();
  dsl::event_source es;
  test::event_under_test<gitlab::event_spec> spec;
  gitlab::options opts;
  std::uint16_t port = test::free_port();
  std::mutex mutex;
  std::string failed, gave_up;

  void SetUp() override {
    es.metadata.name = "gl";
    test::write_file(secrets_dir + "/gitlab-access/token", "glpat-123");
    test::write_file(secrets_dir + "/gitlab-secret/token", "s3cret");
    spec.webhook.endpoint = "/push";
    spec.webhook.method = "POST";
    spec.webhook.port = std::to_string(port);
    spec.projects = {"whynowy/test", "3"};
    spec.events = {"PushEvents", "TagPushEvents"};
    spec.has_events = true;
    spec.access_token = dsl::secret_key_selector{"gitlab-access", "token"};
    spec.secret_token = dsl::secret_key_selector{"gitlab-secret", "token"};
    spec.gitlab_base_url = api.base_url();
    opts.hooks.jitter = std::chrono::milliseconds{0};
    opts.hooks.retry_delay = std::chrono::milliseconds{20};
    opts.hooks.attempts = 3;
    opts.hooks.recheck = std::chrono::hours{1};
  }

  std::unique_ptr<core::source> start() {
    test::put_event(es, "gitlab", "ev", spec);
    core::source_context ctx;
    ctx.event_source_name = "gl";
    ctx.event_name = "ev";
    ctx.type = "gitlab";
    ctx.manifest = &es;
    ctx.bus = bus;
    ctx.secrets = std::make_shared<core::secret_store>(secrets_dir);
    ctx.metrics = &metrics;
    ctx.fail = [this](const std::string& e) {
      std::lock_guard lock{mutex};
      failed = e;
    };
    ctx.give_up = [this](const std::string& e) {
      std::lock_guard lock{mutex};
      gave_up = e;
    };
    return core::start_source(gitlab::make_source_factory(rt, opts), ctx);
  }

  test::http_response deliver(const std::string& body, const std::string& token) {
    std::vector<std::string> headers{"Content-Type: application/json", "X-Gitlab-Event: Push Hook"};
    if (!token.empty())
      headers.push_back("X-Gitlab-Token: " + token);
    return test::http_request("POST", "http://127.0.0.1:" + std::to_string(port) + "/push", body,
                              headers);
  }

  std::uint64_t rejected(const std::string& reason) {
    return metrics
      .get_counter("ganglion_events_rejected_total", "",
                   {{"eventsource", "gl"}, {"event", "ev"}, {"reason", reason}})
      .value();
  }

  std::string failure() {
    std::lock_guard lock{mutex};
    return failed;
  }
  std::string refusal() {
    std::lock_guard lock{mutex};
    return gave_up;
  }
};

TEST_F(gitlab_source, a_delivery_with_the_token_is_published_and_others_refused) {
  auto source = start();
  auto ok = deliver(R"({"object_kind":"push"})", "s3cret");
  EXPECT_EQ(ok.status, 200) << ok.body;
  ASSERT_TRUE(bus->arrived(1));
  EXPECT_EQ(bus->events().front().type, "gitlab");
  auto data = json::parse(bus->data().front());
  EXPECT_EQ(data["body"]["object_kind"], "push");
  EXPECT_EQ(data["headers"]["X-Gitlab-Event"], json::array({"Push Hook"}));
  auto wrong = deliver(R"({"object_kind":"push"})", "guess");
  EXPECT_EQ(wrong.status, 400);
  EXPECT_EQ(wrong.body, "token mismatch");
  EXPECT_EQ(deliver(R"({"object_kind":"push"})", "").status, 400);
  EXPECT_EQ(rejected("unauthorized"), 2u);
  EXPECT_EQ(deliver("not json", "s3cret").status, 400);
  EXPECT_EQ(bus->size(), 1u);
}

TEST_F(gitlab_source, hooks_are_added_with_go_gitlabs_requests_and_deleted_on_stop) {
  spec.webhook.url = "http://hooks.example";
  spec.delete_hook_on_finish = true;
  spec.groups = {"my-group"};
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return api.hooks().size() == 3; })) << failure() << refusal();
  auto requests = api.requests();
  ASSERT_EQ(requests.size(), 6u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].target, "/api/v4/groups/my-group/hooks");
  EXPECT_EQ(requests[1].method, "POST");
  EXPECT_EQ(requests[1].body,
            R"({"url":"http://hooks.example/push","push_events":true,"issues_events":false,)"
            R"("confidential_issues_events":false,"merge_requests_events":false,)"
            R"("tag_push_events":true,"note_events":false,"confidential_note_events":false,)"
            R"("job_events":false,"pipeline_events":false,"wiki_page_events":false,)"
            R"("emoji_events":false,"enable_ssl_verification":false,"token":"s3cret"})");
  EXPECT_EQ(requests[2].target, "/api/v4/projects/whynowy%2Ftest/hooks");
  EXPECT_EQ(requests[3].content_type, "application/json");
  EXPECT_NE(requests[3].body.find(R"("push_events":true,"emoji_events":false,)"
                                  R"("tag_push_events":true,"token":"s3cret",)"
                                  R"("url":"http://hooks.example/push")"),
            std::string::npos)
    << requests[3].body;
  EXPECT_EQ(requests[5].target, "/api/v4/projects/3/hooks");
  for (const auto& r : requests)
    EXPECT_EQ(r.private_token, "glpat-123");
  source.reset();
  EXPECT_TRUE(api.hooks().empty());
  auto after = api.requests();
  ASSERT_EQ(after.size(), 9u);
  EXPECT_EQ(after[6].method, "DELETE");
  EXPECT_EQ(after[6].target, "/api/v4/groups/my-group/hooks/1");
  EXPECT_EQ(after[7].target, "/api/v4/projects/whynowy%2Ftest/hooks/2");
}

TEST_F(gitlab_source, a_hook_with_the_url_is_found_and_kept) {
  spec.webhook.url = "http://hooks.example/";
  spec.projects = {"3"};
  api.add("projects/3", "http://hooks.example/push");
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return !api.requests().empty(); }));
  source.reset();
  ASSERT_EQ(api.requests().size(), 1u);
  EXPECT_EQ(api.hooks().size(), 1u);
}

TEST_F(gitlab_source, an_api_that_refuses_gives_up_with_the_reason) {
  spec.webhook.url = "http://hooks.example";
  api.set_missing("projects/3");
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return !refusal().empty(); }));
  EXPECT_NE(refusal().find("project 3"), std::string::npos) << refusal();
  EXPECT_NE(refusal().find("404: 404 Project Not Found"), std::string::npos) << refusal();
  EXPECT_EQ(api.requests().size(), 3u); // one round, no retry
}

TEST_F(gitlab_source, an_api_that_is_down_is_retried_then_fails_the_source) {
  spec.webhook.url = "http://hooks.example";
  api.set_down(true);
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return !failure().empty(); }));
  EXPECT_NE(failure().find("502"), std::string::npos) << failure();
  EXPECT_EQ(api.requests().size(), 6u); // 3 rounds of 2 projects
  EXPECT_TRUE(refusal().empty());
}

} // namespace
