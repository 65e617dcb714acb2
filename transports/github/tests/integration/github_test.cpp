// The github source on a real server: signed deliveries become Argo's event data, unsigned or
// tampered ones are refused and counted; the hooks of repositories and organizations are kept
// through a GitHub API stand-in (tests/support/github_server: the exact requests checked) with
// an API token or a GitHub App's installation token, and deleted when the source stops; an API
// that refuses or is down puts the source in Error with the reason, without a hot loop.

#include <atomic>
#include <memory>
#include <mutex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "client/signature.hpp"
#include "eventually.hpp"
#include "files.hpp"
#include "ganglion/core/metrics.hpp"
#include "ganglion/core/secrets.hpp"
#include "ganglion/github/spec.hpp"
#include "ganglion/github/transport.hpp"
#include "github_server.hpp"
#include "http_request.hpp"
#include "http_sink.hpp"
#include "kind_manifests.hpp"
#include "loopback_servers.hpp"
#include "recording_bus.hpp"

using namespace ganglion;
using json = nlohmann::json;

namespace {

const std::string secret = "It's a Secret to Everybody";
constexpr std::int64_t app_id = 4321;
constexpr std::int64_t installation_id = 8765;

class github_source : public ::testing::Test {
protected:
  test::rsa_key_pair keys = test::make_rsa_key_pair();
  test::github_server api{app_id, installation_id, keys.public_pem, test::temp_dir()};
  std::shared_ptr<http::runtime> rt = std::make_shared<http::runtime>([] {
    http::runtime_options o;
    o.bind_host = "127.0.0.1";
    return o;
  }());
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  std::string secrets_dir = test::temp_dir();
  dsl::event_source es;
  test::event_under_test<github::event_spec> spec;
  github::options opts;
  std::uint16_t port = test::free_port();
  std::mutex mutex;
  std::string failed, gave_up;

  void SetUp() override {
    es.metadata.name = "gh";
    api.hooks().accept_token("tok-123");
    test::write_file(secrets_dir + "/github-access/token", "tok-123");
    test::write_file(secrets_dir + "/github-access/secret", secret);
    test::write_file(secrets_dir + "/github-app/pem", keys.private_pem);
    spec.webhook.endpoint = "/push";
    spec.webhook.method = "POST";
    spec.webhook.port = std::to_string(port);
    spec.repositories = {{"argoproj", {"argo-events", "argo-workflows"}}};
    spec.events = {"push", "issues"};
    spec.webhook_secret = dsl::secret_key_selector{"github-access", "secret"};
    spec.content_type = "json";
    spec.active = true;
    spec.github_base_url = api.base_url() + "/api/v3";
    spec.github_upload_url = api.base_url() + "/api/uploads";
    opts.hooks.jitter = std::chrono::milliseconds{0};
    opts.hooks.retry_delay = std::chrono::milliseconds{20};
    opts.hooks.attempts = 3;
    opts.hooks.recheck = std::chrono::hours{1};
  }

  void with_hooks() {
    spec.webhook.url = "http://hooks.example/";
    spec.api_token = dsl::secret_key_selector{"github-access", "token"};
  }

  std::unique_ptr<core::source> start() {
    test::put_event(es, "github", "repo", spec);
    core::source_context ctx;
    ctx.event_source_name = "gh";
    ctx.event_name = "repo";
    ctx.type = "github";
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
    return core::start_source(github::make_source_factory(rt, opts), ctx);
  }

  test::http_response deliver(const std::string& body, const std::string& signature,
                              const std::string& type = "application/json") {
    std::vector<std::string> headers{"Content-Type: " + type, "X-GitHub-Event: push",
                                     "X-GitHub-Delivery: 72d3162e"};
    if (!signature.empty())
      headers.push_back("X-Hub-Signature-256: " + signature);
    return test::http_request("POST", "http://127.0.0.1:" + std::to_string(port) + "/push", body,
                              headers);
  }

  std::uint64_t rejected(const std::string& reason) {
    return metrics
      .get_counter("ganglion_events_rejected_total", "",
                   {{"eventsource", "gh"}, {"event", "repo"}, {"reason", reason}})
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

TEST_F(github_source, a_signed_delivery_is_published_with_argos_data) {
  auto source = start();
  std::string body = R"({"zen":"Keep it logically awesome.","hook_id":7})";
  auto reply = deliver(body, github::detail::sign("sha256", secret, body));
  EXPECT_EQ(reply.status, 200) << reply.body;
  ASSERT_TRUE(bus->arrived(1));
  auto event = bus->events().front();
  EXPECT_EQ(event.type, "github");
  auto data = json::parse(bus->data().front());
  EXPECT_EQ(data["body"]["zen"], "Keep it logically awesome.");
  EXPECT_EQ(data["body"]["X-GitHub-Event"], "push");
  EXPECT_EQ(data["body"]["X-GitHub-Delivery"], "72d3162e");
  EXPECT_EQ(data["headers"]["X-Github-Event"], json::array({"push"}));
  EXPECT_FALSE(data.contains("metadata"));
  EXPECT_TRUE(api.hooks().requests().empty()); // no credentials: no hooks API call
}

TEST_F(github_source, unsigned_and_tampered_deliveries_are_refused_and_counted) {
  auto source = start();
  std::string body = R"({"a":1})";
  auto missing = deliver(body, "");
  EXPECT_EQ(missing.status, 400);
  EXPECT_EQ(missing.body, "missing signature");
  auto tampered = deliver(R"({"a":2})", github::detail::sign("sha256", secret, body));
  EXPECT_EQ(tampered.status, 400);
  EXPECT_EQ(tampered.body, "payload signature check failed");
  EXPECT_EQ(rejected("signature"), 2u);
  auto ok = deliver(body, github::detail::sign("sha256", secret, body));
  EXPECT_EQ(ok.status, 200);
  ASSERT_TRUE(bus->arrived(1));
  EXPECT_EQ(bus->size(), 1u);
}

TEST_F(github_source, a_form_delivery_publishes_its_payload_field) {
  auto source = start();
  std::string form = "payload=%7B%22action%22%3A%22opened%22%7D";
  auto reply = deliver(form, github::detail::sign("sha256", secret, form),
                       "application/x-www-form-urlencoded");
  EXPECT_EQ(reply.status, 200) << reply.body;
  ASSERT_TRUE(bus->arrived(1));
  EXPECT_EQ(json::parse(bus->data().front())["body"]["action"], "opened");
}

TEST_F(github_source, hooks_are_created_with_go_githubs_requests_and_deleted_on_stop) {
  with_hooks();
  spec.delete_hook_on_finish = true;
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return api.hooks().hooks().size() == 2; }));
  auto requests = api.hooks().requests();
  ASSERT_EQ(requests.size(), 4u);
  EXPECT_EQ(requests[0].method, "GET");
  EXPECT_EQ(requests[0].target, "/api/v3/repos/argoproj/argo-events/hooks");
  EXPECT_EQ(requests[1].method, "POST");
  EXPECT_EQ(requests[1].target, "/api/v3/repos/argoproj/argo-events/hooks");
  EXPECT_EQ(requests[3].target, "/api/v3/repos/argoproj/argo-workflows/hooks");
  for (const auto& r : requests) {
    EXPECT_EQ(r.authorization, "token tok-123");
    EXPECT_EQ(r.accept, "application/vnd.github.v3+json");
  }
  EXPECT_EQ(requests[1].content_type, "application/json");
  EXPECT_EQ(requests[1].body,
            R"({"name":"web","config":{"content_type":"json","insecure_ssl":"0",)"
            R"("secret":"It's a Secret to Everybody","url":"http://hooks.example/push"},)"
            R"("events":["push","issues"],"active":true})"
            "\n");
  // The webhook serves while the hooks are kept.
  std::string body = R"({"a":1})";
  EXPECT_EQ(deliver(body, github::detail::sign("sha256", secret, body)).status, 200);
  source.reset();
  EXPECT_TRUE(api.hooks().hooks().empty());
  auto after = api.hooks().requests();
  ASSERT_EQ(after.size(), 6u);
  EXPECT_EQ(after[4].method, "DELETE");
  EXPECT_EQ(after[4].target, "/api/v3/repos/argoproj/argo-events/hooks/1");
  EXPECT_EQ(after[5].target, "/api/v3/repos/argoproj/argo-workflows/hooks/2");
  EXPECT_TRUE(failure().empty());
  EXPECT_TRUE(refusal().empty());
}

TEST_F(github_source, an_existing_hook_is_kept_and_hooks_stay_without_delete_on_finish) {
  with_hooks();
  spec.repositories = {{"argoproj", {"argo-events"}}};
  api.hooks().add("repos/argoproj/argo-events", "http://hooks.example/push", {"issues", "push"});
  spec.organizations = {"argoproj"};
  spec.has_organizations = true;
  spec.repositories.clear();
  api.hooks().add("orgs/argoproj", "http://hooks.example/other", {"push", "issues"});
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return api.hooks().hooks().size() == 3; }));
  auto requests = api.hooks().requests();
  ASSERT_EQ(requests.size(), 2u);
  EXPECT_EQ(requests[0].target, "/api/v3/orgs/argoproj/hooks");
  EXPECT_EQ(requests[1].method, "POST");
  EXPECT_EQ(requests[1].target, "/api/v3/orgs/argoproj/hooks");
  source.reset();
  EXPECT_EQ(api.hooks().hooks().size(), 3u);

  spec.organizations.clear();
  spec.has_organizations = false;
  spec.repositories = {{"argoproj", {"argo-events"}}};
  auto again = start();
  ASSERT_TRUE(test::eventually([&] { return api.hooks().requests().size() == 3; }));
  again.reset();
  EXPECT_EQ(api.hooks().requests().size(), 3u); // found by URL and events: not created
  EXPECT_EQ(api.hooks().hooks().size(), 3u);
}

TEST_F(github_source, an_api_that_refuses_gives_up_with_the_reason_at_once) {
  with_hooks();
  test::write_file(secrets_dir + "/github-access/token", "wrong");
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return !refusal().empty(); }));
  EXPECT_NE(refusal().find("answered HTTP 401: Bad credentials"), std::string::npos) << refusal();
  EXPECT_NE(refusal().find("repository argoproj/argo-events"), std::string::npos) << refusal();
  EXPECT_EQ(api.hooks().requests().size(), 2u); // one round, no retry
  EXPECT_TRUE(failure().empty());
}

TEST_F(github_source, an_unknown_repository_is_a_refusal_too) {
  with_hooks();
  api.hooks().set_missing("repos/argoproj/argo-workflows");
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return !refusal().empty(); }));
  EXPECT_NE(refusal().find("404: Not Found"), std::string::npos) << refusal();
  EXPECT_EQ(api.hooks().hooks().size(), 1u);
}

TEST_F(github_source, an_api_that_is_down_is_retried_with_backoff_then_fails_the_source) {
  with_hooks();
  api.hooks().set_down(true);
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return !failure().empty(); }));
  EXPECT_NE(failure().find("503"), std::string::npos) << failure();
  EXPECT_EQ(api.hooks().requests().size(), 6u); // 3 rounds of 2 repositories, then no more
  EXPECT_TRUE(refusal().empty());
}

TEST_F(github_source, a_github_app_registers_with_its_installation_token) {
  test::tls_front front{
    static_cast<std::uint16_t>(std::stoi(api.base_url().substr(api.base_url().rfind(':') + 1)))};
  with_hooks();
  spec.api_token.reset();
  spec.github_app = github::github_app_creds{dsl::secret_key_selector{"github-app", "pem"}, app_id,
                                             installation_id};
  spec.github_base_url = front.base_url() + "/api/v3/";
  spec.github_upload_url = front.base_url() + "/api/uploads/";
  opts.ca_file = front.ca_file();
  auto source = start();
  ASSERT_TRUE(test::eventually([&] { return api.hooks().hooks().size() == 2; }))
    << failure() << refusal();
  EXPECT_EQ(api.tokens_issued(), 1u);
  for (const auto& r : api.hooks().requests())
    EXPECT_TRUE(r.authorization.starts_with("token ghs_")) << r.authorization;
}

} // namespace
