// The gerrit source on a real server: Argo's event data, a body that is not JSON refused, and
// its hook kept on each project through a stand-in of Gerrit's webhooks plugin API
// (tests/support/gerrit_server.hpp), which checks the exact requests.

#include <gtest/gtest.h>

#include "eventually.hpp"
#include "files.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/gerrit/spec.hpp"
#include "ganglion/gerrit/transport.hpp"
#include "gerrit_server.hpp"
#include "http_request.hpp"
#include "http_sink.hpp"
#include "kind_manifests.hpp"
#include "kube/text.hpp"
#include "push_source_context.hpp"
#include "recording_bus.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

class gerrit_source : public ::testing::Test {
protected:
  void SetUp() override {
    es.metadata.name = "gerrit";
    test::write_file(secrets + "/gerrit-access/username", "argo");
    test::write_file(secrets + "/gerrit-access/password", "s3cret");
    rt = test::loopback_runtime();
  }

  /// The corpus example's event, on a free port, registering at the stand-in when `hooks`.
  test::event_under_test<gerrit::event_spec>& add(const std::string& name, bool hooks) {
    auto& e = events[name];
    e.webhook.endpoint = "/push";
    e.webhook.port = std::to_string(port);
    e.webhook.method = "POST";
    e.hook_name = "argo-webhook-example";
    e.events = {"patchset-created"};
    e.projects = {"argo-webhook", "argo/webhook"};
    e.gerrit_base_url = api.base_url() + "/";
    e.auth = dsl::basic_auth{dsl::secret_key_selector{"gerrit-access", "username"},
                             dsl::secret_key_selector{"gerrit-access", "password"}};
    if (hooks)
      e.webhook.url = "http://ganglion.example:13000/";
    return e;
  }

  std::unique_ptr<core::source> start(const std::string& name) {
    for (const auto& [event, spec] : events)
      test::put_event(es, "gerrit", event, spec);
    return gerrit::make_source_factory(rt, opts)(
      test::push_source_context(es, "gerrit", name, bus, &metrics, secrets, failures));
  }

  std::vector<std::string> failed() const { return failures.all(); }

  std::size_t count(const std::string& method) const {
    std::size_t n = 0;
    for (const auto& r : api.requests())
      n += r.method == method;
    return n;
  }

  std::string url(const std::string& path = "/push") const {
    return "http://127.0.0.1:" + std::to_string(port) + path;
  }

  long counter(const std::string& series) const {
    auto text = metrics.render();
    auto at = text.find(series + " ");
    return at == std::string::npos ? -1 : std::stol(text.substr(at + series.size() + 1));
  }

  test::gerrit_server api{"argo", "s3cret"};
  std::uint16_t port = test::free_port();
  std::string secrets = test::temp_dir();
  std::shared_ptr<http::runtime> rt;
  gerrit::options opts{.request_timeout = 5000ms,
                       .recheck = 60000ms,
                       .first_retry = 5ms,
                       .max_retry = 20ms,
                       .first_delay = 0ms,
                       .attempts = 3};
  dsl::event_source es;
  std::map<std::string, test::event_under_test<gerrit::event_spec>> events;
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  test::recorded_failures failures;
};

constexpr const char* patchset = R"({
  "type": "patchset-created",
  "change": {"project": "argo/webhook", "subject": "<fix> & test"}
})";

} // namespace

TEST_F(gerrit_source, a_post_becomes_an_event_with_argos_data) {
  add("example", false).metadata = {{"team", "review"}};
  auto source = start("example");
  auto r = test::http_request("POST", url(), patchset,
                              {"Content-Type: application/json", "X-Origin-Url: https://r"});
  EXPECT_EQ(r.status, 200) << r.body << r.error;
  auto got = bus->wait_for(1, 10s);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0].type, "gerrit");
  EXPECT_EQ(got[0].source, "gerrit");
  EXPECT_EQ(got[0].subject, "example");
  auto data = got[0].data;
  auto headers = data.substr(0, data.find(R"(,"body":)"));
  EXPECT_NE(headers.find(R"("Content-Type":["application/json"])"), std::string::npos) << data;
  EXPECT_NE(headers.find(R"("X-Origin-Url":["https://r"])"), std::string::npos) << data;
  EXPECT_EQ(data.substr(data.find(R"(,"body":)")),
            R"(,"body":{"type":"patchset-created","change":{"project":"argo/webhook",)"
            R"("subject":"\u003cfix\u003e \u0026 test"}},"metadata":{"team":"review"}})");
  EXPECT_TRUE(api.requests().empty()); // no webhook.url: no hook
}

TEST_F(gerrit_source, a_body_that_is_not_json_is_a_counted_400_and_no_event) {
  add("example", false);
  auto source = start("example");
  auto r = test::http_request("POST", url(), "{\"type\":", {"Content-Type: application/json"});
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, "invalid event");
  EXPECT_EQ(counter(R"(ganglion_events_rejected_total{eventsource="gerrit",event="example",)"
                    R"(reason="bad_request"})"),
            1);
  EXPECT_EQ(bus->size(), 0u);
}

TEST_F(gerrit_source, the_hook_is_registered_on_each_project_with_go_gerrits_requests) {
  add("example", true).max_tries = 3;
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return api.hooks().size() == 2; })) << api.requests().size();
  const std::string body = R"({"url":"http://ganglion.example:13000/push",)"
                           R"("events":["patchset-created"],"maxTries":3})"
                           "\n";
  EXPECT_EQ(api.hook("argo-webhook", "argo-webhook-example"), body);
  EXPECT_EQ(api.hook("argo/webhook", "argo-webhook-example"), body);
  auto requests = api.requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].target, "/a/config/server/webhooks~projects/argo-webhook/remotes/");
  EXPECT_EQ(requests[1].method, "PUT");
  EXPECT_EQ(requests[1].target,
            "/a/config/server/webhooks~projects/argo-webhook/remotes/argo-webhook-example/");
  EXPECT_EQ(requests[3].target,
            "/a/config/server/webhooks~projects/argo%2Fwebhook/remotes/argo-webhook-example/");
  for (const auto& r : requests)
    EXPECT_EQ(r.header("Authorization"), "Basic " + test::kube::base64_encode("argo:s3cret"));
  EXPECT_EQ(requests[1].header("Content-Type"), "application/json");
  EXPECT_TRUE(failed().empty());
  source.reset();
  EXPECT_EQ(api.hooks().size(), 2u); // deleteHookOnFinish is false: the hooks stay
}

TEST_F(gerrit_source, a_hook_already_there_is_kept_and_deleted_on_finish) {
  auto& e = add("example", true);
  e.delete_hook_on_finish = true;
  e.projects = {"argo/webhook"};
  api.put_hook("argo/webhook", "argo-webhook-example",
               R"({"url":"http://ganglion.example:13000/push"})");
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return count("GET") == 1; }));
  source.reset();
  EXPECT_EQ(count("PUT"), 0u);
  EXPECT_EQ(count("DELETE"), 1u);
  EXPECT_TRUE(api.hooks().empty());
  EXPECT_EQ(api.requests().back().target,
            "/a/config/server/webhooks~projects/argo%2Fwebhook/remotes/argo-webhook-example/");
}

TEST_F(gerrit_source, an_api_that_stays_down_fails_the_source_with_the_reason_after_a_few_tries) {
  add("example", true).projects = {"p"};
  api.set_down(true);
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }));
  auto why = failed();
  ASSERT_EQ(why.size(), 1u);
  EXPECT_EQ(why[0].rfind("fail: Gerrit hook of project p: GET ", 0), 0u) << why[0];
  EXPECT_NE(why[0].find("answered 503"), std::string::npos) << why[0];
  EXPECT_EQ(api.requests().size(), 3u);             // opts.attempts, then no more
  auto r = test::http_request("POST", url(), "{}"); // the endpoint still answers meanwhile
  EXPECT_EQ(r.status, 200);
}

TEST_F(gerrit_source, credentials_gerrit_refuses_give_up_at_once) {
  test::write_file(secrets + "/gerrit-access/password", "wrong");
  add("example", true);
  auto source = start("example");
  ASSERT_TRUE(test::eventually([&] { return !failed().empty(); }));
  auto why = failed();
  ASSERT_EQ(why.size(), 1u);
  EXPECT_EQ(why[0].rfind("give_up: Gerrit hook of project argo-webhook: ", 0), 0u) << why[0];
  EXPECT_NE(why[0].find("answered 401"), std::string::npos) << why[0];
  EXPECT_EQ(api.requests().size(), 1u);
}

TEST_F(gerrit_source, a_missing_secret_refuses_to_start) {
  add("example", true).auth->password = dsl::secret_key_selector{"gerrit-access", "nope"};
  EXPECT_THROW(start("example"), core::source_error);
  EXPECT_TRUE(api.requests().empty());
}
