// The bitbucketserver source on a real server: signed, unsigned and tampered requests (a bad
// signature is a counted 400 and no event), and its hooks kept through a stand-in of Bitbucket
// Server's REST API 1.0 (tests/support/bitbucket_server_api.hpp), which checks the exact
// requests.

#include <gtest/gtest.h>

#include "bitbucket_server_api.hpp"
#include "eventually.hpp"
#include "fast_options.hpp"
#include "files.hpp"
#include "ganglion/bitbucket/spec.hpp"
#include "ganglion/bitbucket/transport.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/go/codec.hpp"
#include "http_request.hpp"
#include "http_sink.hpp"
#include "kind_manifests.hpp"
#include "push_source_context.hpp"
#include "recording_bus.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

const std::string push =
  R"({"eventKey":"repo:refs_changed","changes":[{"refId":"refs/heads/main"}]})";

class bitbucketserver_source : public ::testing::Test {
protected:
  void SetUp() override {
    es.metadata.name = "bitbucketserver";
    test::write_file(secrets + "/bitbucketserver-access/token", "access-token");
    test::write_file(secrets + "/bitbucketserver-access/secret", "hook-secret");
    rt = test::loopback_runtime();
  }

  /// The corpus example's event, on a free port, registering at the stand-in when `hooks`.
  test::event_under_test<bitbucket::server_spec>& add(const std::string& name, bool hooks) {
    auto& e = events[name];
    e.webhook.endpoint = "/push";
    e.webhook.port = std::to_string(port);
    e.webhook.method = "POST";
    e.events = {"repo:refs_changed"};
    e.repositories = {{"PROJECTKEY1", "name-of-repository1"}};
    e.webhook_secret = dsl::secret_key_selector{"bitbucketserver-access", "secret"};
    e.base_url = api.base_url();
    if (hooks) {
      e.webhook.url = "https://ganglion.example";
      e.access_token = dsl::secret_key_selector{"bitbucketserver-access", "token"};
    }
    return e;
  }

  std::unique_ptr<core::source> start(const std::string& name) {
    for (const auto& [event, spec] : events)
      test::put_event(es, "bitbucketserver", event, spec);
    return bitbucket::make_server_source_factory(rt, opts)(
      test::push_source_context(es, "bitbucketserver", name, bus, &metrics, secrets, failures));
  }

  std::vector<std::string> failed() const { return failures.all(); }

  test::http_response post(const std::string& body, const std::string& signature) {
    std::vector<std::string> headers{"Content-Type: application/json",
                                     "X-Event-Key: repo:refs_changed"};
    if (!signature.empty())
      headers.push_back("X-Hub-Signature: " + signature);
    return test::http_request("POST", "http://127.0.0.1:" + std::to_string(port) + "/push", body,
                              headers);
  }

  long rejected(const std::string& reason) const {
    auto series = R"(ganglion_events_rejected_total{eventsource="bitbucketserver",event="e",)"
                  R"(reason=")"
                  + reason + "\"}";
    auto text = metrics.render();
    auto at = text.find(series + " ");
    return at == std::string::npos ? 0 : std::stol(text.substr(at + series.size() + 1));
  }

  std::size_t count(const std::string& method) const {
    std::size_t n = 0;
    for (const auto& r : api.requests())
      n += r.method == method;
    return n;
  }

  test::bitbucket_server_api api{"access-token"};
  std::uint16_t port = test::free_port();
  std::string secrets = test::temp_dir();
  std::shared_ptr<http::runtime> rt;
  bitbucket::options opts = test::fast_options();
  dsl::event_source es;
  std::map<std::string, test::event_under_test<bitbucket::server_spec>> events;
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  test::recorded_failures failures;
};

} // namespace

TEST_F(bitbucketserver_source, a_signed_request_is_an_event_and_a_bad_signature_a_counted_400) {
  add("e", false).metadata = {{"team", "scm"}};
  auto source = start("e");
  auto good = "sha256=" + dsl::hmac_sha256_hex("hook-secret", push);

  auto tampered = post(push + " ", good);
  EXPECT_EQ(tampered.status, 400);
  EXPECT_EQ(tampered.body,
            "failed to validate bitbucketserver webhook request: hmac verification failed");
  auto unsigned_ = post(push, "");
  EXPECT_EQ(unsigned_.status, 400);
  EXPECT_EQ(unsigned_.body,
            "failed to validate bitbucketserver webhook request: missing signature header");
  EXPECT_EQ(rejected("signature"), 2);

  auto r = post(push, good);
  EXPECT_EQ(r.status, 200) << r.body << r.error;
  auto got = bus->wait_for(1, 10s);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, "bitbucketserver");
  EXPECT_EQ(got[0].subject, "e");
  const auto& data = got[0].data;
  EXPECT_NE(data.find(R"("X-Hub-Signature":[")" + good + "\"]"), std::string::npos) << data;
  EXPECT_EQ(data.substr(data.find(R"(,"body":)")),
            R"(,"body":)" + push + R"(,"metadata":{"team":"scm"}})");
  EXPECT_EQ(bus->size(), 1u);
  EXPECT_TRUE(api.requests().empty()); // no accessToken: no hook
}

TEST_F(bitbucketserver_source, the_hook_is_created_with_go_bitbucket_v1s_request_and_deleted) {
  add("e", true).delete_hook_on_finish = true;
  auto source = start("e");
  ASSERT_TRUE(test::eventually([&] { return api.hooks().size() == 1; }));
  auto requests = api.requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].target,
            "/rest/api/1.0/projects/PROJECTKEY1/repos/name-of-repository1/webhooks");
  EXPECT_EQ(requests[1].method, "POST");
  EXPECT_EQ(requests[1].target, requests[0].target);
  EXPECT_EQ(requests[1].body, R"({"id":0,"name":"Argo Events","events":["repo:refs_changed"],)"
                              R"("url":"https://ganglion.example/push","active":true,)"
                              R"("configuration":{"secret":"hook-secret"}})");
  for (const auto& r : requests) {
    EXPECT_EQ(r.header("Authorization"), "Bearer access-token");
    EXPECT_EQ(r.header("X-Atlassian-Token"), "no-check");
    EXPECT_EQ(r.header("X-Requested-With"), "XMLHttpRequest");
  }
  source.reset();
  EXPECT_TRUE(api.hooks().empty());
  EXPECT_EQ(api.requests().back().method, "DELETE");
  EXPECT_EQ(api.requests().back().target,
            "/rest/api/1.0/projects/PROJECTKEY1/repos/name-of-repository1/webhooks/1");
}

TEST_F(bitbucketserver_source, a_hook_with_other_events_is_updated_and_one_removed_comes_back) {
  auto& e = add("e", true);
  e.check_interval = "20ms";
  e.webhook_secret.reset();
  auto id = api.put_hook("PROJECTKEY1/name-of-repository1",
                         R"({"url":"https://ganglion.example/push","events":["pr:opened"]})");
  auto source = start("e");
  ASSERT_TRUE(test::eventually([&] { return count("PUT") == 1; }));
  const std::string body = R"({"active":true,"events":["repo:refs_changed"],"id":0,)"
                           R"("name":"Argo Events","url":"https://ganglion.example/push"})";
  EXPECT_EQ(api.hooks()["PROJECTKEY1/name-of-repository1"][id], body);
  api.clear_hooks(); // deleted by hand: the next check creates it again
  ASSERT_TRUE(test::eventually([&] { return count("POST") == 1; }));
  EXPECT_EQ(api.hooks()["PROJECTKEY1/name-of-repository1"].begin()->second, body);
  EXPECT_EQ(count("PUT"), 1u); // in place and unchanged since: not updated again
  EXPECT_TRUE(failed().empty());
}

TEST_F(bitbucketserver_source, every_repository_of_a_project_gets_the_hook) {
  auto& e = add("e", true);
  e.repositories.clear();
  e.projects = {"PRJ"};
  for (const char* slug : {"a", "b", "c"})
    api.add_repository("PRJ", slug);
  auto source = start("e");
  ASSERT_TRUE(test::eventually([&] { return api.hooks().size() == 3; }));
  auto requests = api.requests();
  EXPECT_EQ(requests[0].target, "/rest/api/1.0/projects/PRJ/repos?limit=500&start=0");
  EXPECT_EQ(requests[1].target, "/rest/api/1.0/projects/PRJ/repos?limit=500&start=2");
  EXPECT_EQ(api.hooks().count("PRJ/c"), 1u);
}

TEST_F(bitbucketserver_source, an_api_that_stays_down_fails_the_source_after_a_few_tries) {
  add("e", true);
  api.set_down(true);
  auto source = start("e");
  ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }));
  auto why = failed();
  ASSERT_EQ(why.size(), 1u);
  EXPECT_EQ(why[0].rfind("fail: Bitbucket Server hook of PROJECTKEY1/name-of-repository1: ", 0), 0u)
    << why[0];
  EXPECT_NE(why[0].find("answered 503"), std::string::npos) << why[0];
  EXPECT_EQ(api.requests().size(), 3u);
}

TEST_F(bitbucketserver_source, a_token_bitbucket_refuses_gives_up_at_once) {
  test::write_file(secrets + "/bitbucketserver-access/token", "expired");
  add("e", true);
  auto source = start("e");
  ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }));
  EXPECT_EQ(failed()[0].rfind("give_up: ", 0), 0u) << failed()[0];
  EXPECT_EQ(api.requests().size(), 1u);
}
