// The bitbucket (Bitbucket Cloud) source on a real server: Argo's event data, a body that is
// not JSON refused, and its hooks registered through a stand-in of API 2.0
// (tests/support/bitbucket_cloud_api.hpp), which checks the exact requests.

#include <gtest/gtest.h>

#include "bitbucket_cloud_api.hpp"
#include "eventually.hpp"
#include "fast_options.hpp"
#include "files.hpp"
#include "ganglion/bitbucket/spec.hpp"
#include "ganglion/bitbucket/transport.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "http_request.hpp"
#include "http_sink.hpp"
#include "kind_manifests.hpp"
#include "kube/text.hpp"
#include "push_source_context.hpp"
#include "recording_bus.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

const std::string basic = "Basic " + test::kube::base64_encode("argo:app-password");

class bitbucket_source : public ::testing::Test {
protected:
  void SetUp() override {
    es.metadata.name = "bitbucket";
    test::write_file(secrets + "/bitbucket-access/username", "argo");
    test::write_file(secrets + "/bitbucket-access/password", "app-password");
    test::write_file(secrets + "/bitbucket-access/token", "oauth-token");
    rt = test::loopback_runtime();
    opts.cloud_api_url = api->api_url();
  }

  /// The corpus example's event, on a free port, registering at the stand-in when `hooks`.
  test::event_under_test<bitbucket::event_spec>& add(const std::string& name, bool hooks) {
    auto& e = events[name];
    e.webhook.endpoint = "/push";
    e.webhook.port = std::to_string(port);
    e.webhook.method = "POST";
    e.events = {"repo:push"};
    e.repositories = {{"argo", "events"}, {"argo", "workflows"}};
    e.auth = bitbucket::cloud_auth{
      dsl::basic_auth{dsl::secret_key_selector{"bitbucket-access", "username"},
                      dsl::secret_key_selector{"bitbucket-access", "password"}},
      std::nullopt};
    if (hooks)
      e.webhook.url = "https://ganglion.example/";
    return e;
  }

  std::unique_ptr<core::source> start(const std::string& name) {
    for (const auto& [event, spec] : events)
      test::put_event(es, "bitbucket", event, spec);
    return bitbucket::make_cloud_source_factory(rt, opts)(
      test::push_source_context(es, "bitbucket", name, bus, &metrics, secrets, failures));
  }

  std::vector<std::string> failed() const { return failures.all(); }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port) + "/push"; }

  std::unique_ptr<test::bitbucket_cloud_api> api =
    std::make_unique<test::bitbucket_cloud_api>(basic);
  std::uint16_t port = test::free_port();
  std::string secrets = test::temp_dir();
  std::shared_ptr<http::runtime> rt;
  bitbucket::options opts = test::fast_options();
  dsl::event_source es;
  std::map<std::string, test::event_under_test<bitbucket::event_spec>> events;
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  test::recorded_failures failures;
};

} // namespace

TEST_F(bitbucket_source, a_post_becomes_an_event_with_argos_data) {
  add("example", false).metadata = {{"team", "ci"}};
  auto source = start("example");
  auto r = test::http_request("POST", url(), R"({ "push": {"changes": []}, "actor": "<a>" })",
                              {"Content-Type: application/json", "X-Event-Key: repo:push"});
  EXPECT_EQ(r.status, 200) << r.body << r.error;
  auto got = bus->wait_for(1, 10s);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, "bitbucket");
  EXPECT_EQ(got[0].subject, "example");
  const auto& data = got[0].data;
  EXPECT_EQ(data.rfind(R"({"headers":{)", 0), 0u) << data;
  EXPECT_NE(data.find(R"("X-Event-Key":["repo:push"])"), std::string::npos) << data;
  EXPECT_EQ(data.substr(data.find(R"(,"body":)")),
            R"(,"body":{"push":{"changes":[]},"actor":"\u003ca\u003e"},"metadata":{"team":"ci"}})");
  EXPECT_TRUE(api->requests().empty()); // no webhook.url: no hook
}

TEST_F(bitbucket_source, a_body_that_is_not_json_is_a_400_and_no_event) {
  add("example", false);
  auto source = start("example");
  auto r = test::http_request("POST", url(), "not json", {"Content-Type: application/json"});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, "invalid event");
  EXPECT_EQ(bus->size(), 0u);
}

TEST_F(bitbucket_source, a_hook_is_created_on_each_repository_with_go_bitbuckets_requests) {
  add("example", true).delete_hook_on_finish = true;
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return api->hooks().size() == 2; }));
  auto requests = api->requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].target, "/2.0/repositories/argo/events/hooks/");
  EXPECT_EQ(requests[1].method, "POST");
  EXPECT_EQ(requests[1].target, "/2.0/repositories/argo/events/hooks");
  EXPECT_EQ(requests[1].header("Content-Type"), "application/json");
  EXPECT_EQ(requests[1].body, R"({"active":true,"description":"webhook managed by Argo-Events",)"
                              R"("events":["repo:push"],"url":"https://ganglion.example/push"})");
  EXPECT_EQ(requests[3].target, "/2.0/repositories/argo/workflows/hooks");
  for (const auto& r : requests)
    EXPECT_EQ(r.header("Authorization"), basic);
  source.reset(); // deleteHookOnFinish
  EXPECT_TRUE(api->hooks().empty());
  requests = api->requests();
  ASSERT_EQ(requests.size(), 6u);
  EXPECT_EQ(requests[4].method, "DELETE");
  EXPECT_EQ(requests[4].target.rfind("/2.0/repositories/argo/", 0), 0u);
  EXPECT_NE(requests[4].target.find("/hooks/%7Bhook-"), std::string::npos) << requests[4].target;
}

TEST_F(bitbucket_source, a_hook_with_the_same_url_is_replaced_and_the_hooks_stay_without_delete) {
  auto& e = add("example", true);
  e.repositories = {{"argo", "events"}};
  auto old = api->put_hook("argo/events", "https://ganglion.example/push");
  auto other = api->put_hook("argo/events", "https://elsewhere.example/push");
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return api->requests().size() == 3; }));
  auto requests = api->requests();
  EXPECT_EQ(requests[1].method, "DELETE");
  EXPECT_EQ(requests[1].target, "/2.0/repositories/argo/events/hooks/%7Bhook-1%7D");
  EXPECT_EQ(requests[2].method, "POST");
  source.reset();
  auto hooks = api->hooks()["argo/events"];
  EXPECT_EQ(hooks.size(), 2u);
  EXPECT_EQ(hooks.count(old), 0u);
  EXPECT_EQ(hooks.count(other), 1u);
  EXPECT_EQ(api->requests().size(), 3u);
}

TEST_F(bitbucket_source, an_oauth_token_is_sent_as_a_bearer_token) {
  api = std::make_unique<test::bitbucket_cloud_api>("Bearer oauth-token");
  opts.cloud_api_url = api->api_url();
  auto& e = add("example", true);
  e.repositories = {{"argo", "events"}};
  e.auth =
    bitbucket::cloud_auth{std::nullopt, dsl::secret_key_selector{"bitbucket-access", "token"}};
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return api->hooks().size() == 1; }));
  EXPECT_TRUE(failed().empty());
}

TEST_F(bitbucket_source, an_api_that_stays_down_fails_the_source_after_a_few_tries) {
  add("example", true).repositories = {{"argo", "events"}};
  api->set_down(true);
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }));
  auto why = failed();
  ASSERT_EQ(why.size(), 1u);
  EXPECT_EQ(why[0].rfind("fail: Bitbucket hook of argo/events: GET ", 0), 0u) << why[0];
  EXPECT_NE(why[0].find("answered 503"), std::string::npos) << why[0];
  EXPECT_EQ(api->requests().size(), 3u);
}

TEST_F(bitbucket_source, credentials_bitbucket_refuses_give_up_at_once) {
  test::write_file(secrets + "/bitbucket-access/password", "wrong");
  add("example", true);
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }));
  auto why = failed();
  ASSERT_EQ(why.size(), 1u);
  EXPECT_EQ(why[0].rfind("give_up: Bitbucket hook of argo/events: ", 0), 0u) << why[0];
  EXPECT_EQ(api->requests().size(), 1u);
}
