// The bitbucketserver source's oneEventPerChange and skipBranchRefsChangedOnOpenPR on a real
// server: a repo:refs_changed request split into one event per change (Argo's re-encoded
// bodies), branch changes with an open pull request dropped after asking a stand-in of
// Bitbucket Server's REST API 1.0 (tests/support/bitbucket_server_api.hpp, which checks the
// exact request and the token), Argo's answers when nothing is left or the API fails, and a
// 503 when the bus refuses one of a request's events.

#include <gtest/gtest.h>

#include "bitbucket_server_api.hpp"
#include "fast_options.hpp"
#include "files.hpp"
#include "ganglion/bitbucket/spec.hpp"
#include "ganglion/bitbucket/transport.hpp"
#include "ganglion/core/metrics.hpp"
#include "http_request.hpp"
#include "kind_manifests.hpp"
#include "push_source_context.hpp"
#include "recording_bus.hpp"

using namespace ganglion;
using namespace std::chrono_literals;

namespace {

std::string change(const std::string& name, const std::string& ref_type, const std::string& type,
                   const std::string& to_hash) {
  auto kind = ref_type == "TAG" ? "tags" : "heads";
  return R"({"ref":{"id":"refs/)" + std::string(kind) + "/" + name + R"(","displayId":")" + name
         + R"(","type":")" + ref_type + R"("},"refId":"refs/)" + kind + "/" + name
         + R"(","fromHash":"0000","toHash":")" + to_hash + R"(","type":")" + type + R"("})";
}

const std::string main_h1 = change("main", "BRANCH", "UPDATE", "h1");
const std::string dev_h2 = change("dev", "BRANCH", "UPDATE", "h2");

/// A delivery with `changes`, a `<` in a name, an unknown field and most fields missing.
std::string delivery(const std::vector<std::string>& changes) {
  std::string out = R"({"eventKey":"repo:refs_changed","date":"2024-01-01T00:00:00+0000",)"
                    R"("actor":{"name":"ada <a>","id":3,"unknown":true},)"
                    R"("repository":{"slug":"repo","project":{"key":"PROJ"}},"changes":[)";
  for (std::size_t i = 0; i < changes.size(); ++i)
    out += (i ? "," : "") + changes[i];
  return out + "]}";
}

/// json.Marshal of Argo's refsChangedWebhookEvent decoded from delivery(), with `one` change.
std::string argo_body(const std::string& one) {
  return R"({"eventKey":"repo:refs_changed","date":"2024-01-01T00:00:00+0000",)"
         R"("actor":{"name":"ada \u003ca\u003e","emailAddress":"","id":3,"displayName":"",)"
         R"("active":false,"slug":"","type":"","links":{"self":null}},)"
         R"("repository":{"slug":"repo","id":0,"name":"","hierarchyId":"","scmId":"",)"
         R"("state":"","statusMessage":"","forkable":false,"project":{"key":"PROJ","id":0,)"
         R"("name":"","public":false,"type":"","links":{"self":null}},"public":false,)"
         R"("links":{"clone":null,"self":null}},"changes":[)"
         + one + "]}";
}

/// The published body (the JSON after `"body":`, metadata being empty).
std::string body_of(const std::string& data) {
  auto at = data.find(R"(,"body":)");
  return at == std::string::npos ? data : data.substr(at + 8, data.size() - at - 9);
}

class bitbucketserver_changes : public ::testing::Test {
protected:
  void SetUp() override {
    es.metadata.name = "bitbucketserver";
    test::write_file(secrets + "/bitbucketserver-access/token", "access-token");
    rt = test::loopback_runtime();
  }

  /// An event with no hook (no webhook.url) but the access token, and the two options.
  std::unique_ptr<core::source> start(bool one_per_change, bool skip) {
    test::event_under_test<bitbucket::server_spec> e;
    e.webhook.endpoint = "/push";
    e.webhook.port = std::to_string(port);
    e.webhook.method = "POST";
    e.base_url = api.base_url();
    e.access_token = dsl::secret_key_selector{"bitbucketserver-access", "token"};
    e.one_event_per_change = one_per_change;
    e.skip_branch_refs_changed_on_open_pr = skip;
    test::put_event(es, "bitbucketserver", "e", e);
    return bitbucket::make_server_source_factory(rt, opts)(
      test::push_source_context(es, "bitbucketserver", "e", bus, &metrics, secrets, failures));
  }

  test::http_response post(const std::string& body) {
    return test::http_request("POST", "http://127.0.0.1:" + std::to_string(port) + "/push", body,
                              {"Content-Type: application/json", "X-Event-Key: repo:refs_changed"});
  }

  std::vector<std::string> targets() const {
    std::vector<std::string> out;
    for (const auto& r : api.requests())
      out.push_back(r.target);
    return out;
  }

  static std::string prs_of(const std::string& hash, int start) {
    return "/rest/api/1.0/projects/PROJ/repos/repo/commits/" + hash
           + "/pull-requests?limit=500&start=" + std::to_string(start);
  }

  test::bitbucket_server_api api{"access-token"};
  std::uint16_t port = test::free_port();
  std::string secrets = test::temp_dir();
  std::shared_ptr<http::runtime> rt;
  bitbucket::options opts = test::fast_options();
  dsl::event_source es;
  std::shared_ptr<test::recording_bus> bus = std::make_shared<test::recording_bus>();
  core::metrics_registry metrics;
  test::recorded_failures failures;
};

} // namespace

TEST_F(bitbucketserver_changes, two_changes_are_two_events_with_argos_re_encoded_bodies) {
  auto source = start(true, false);
  auto r = post(delivery({main_h1, dev_h2}));
  EXPECT_EQ(r.status, 200) << r.body << r.error;
  EXPECT_EQ(r.body, "success");
  auto got = bus->wait_for(2, 10s);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(body_of(got[0].data), argo_body(main_h1));
  EXPECT_EQ(body_of(got[1].data), argo_body(dev_h2));
  EXPECT_NE(got[1].data.find(R"("X-Event-Key":["repo:refs_changed"])"), std::string::npos);
  EXPECT_TRUE(api.requests().empty()); // no skip: no call
}

TEST_F(bitbucketserver_changes, a_branch_change_with_an_open_pull_request_is_dropped) {
  api.set_commit_pull_requests("PROJ/repo", "h1", {"DECLINED", "MERGED", "open"});
  api.set_commit_pull_requests("PROJ/repo", "h2", {"MERGED"});
  auto deleted = change("old", "BRANCH", "DELETE", "h3");
  auto tag = change("v1", "TAG", "ADD", "h4");
  auto source = start(true, true);
  auto r = post(delivery({main_h1, dev_h2, deleted, tag}));
  EXPECT_EQ(r.status, 200) << r.body << r.error;
  ASSERT_EQ(bus->size(), 3u);
  auto got = bus->wait_for(3, 10s);
  EXPECT_EQ(body_of(got[0].data), argo_body(dev_h2));
  EXPECT_EQ(body_of(got[1].data), argo_body(deleted));
  EXPECT_EQ(body_of(got[2].data), argo_body(tag));
  // Only branch changes that are not deletions are asked about, page after page.
  EXPECT_EQ(targets(),
            (std::vector<std::string>{prs_of("h1", 0), prs_of("h1", 2), prs_of("h2", 0)}));
  for (const auto& req : api.requests())
    EXPECT_EQ(req.header("Authorization"), "Bearer access-token");
}

TEST_F(bitbucketserver_changes, nothing_left_is_a_200_and_no_event) {
  api.set_commit_pull_requests("PROJ/repo", "h1", {"OPEN"});
  api.set_commit_pull_requests("PROJ/repo", "h2", {"MERGED", "Open"});
  auto source = start(true, true);
  auto r = post(delivery({main_h1, dev_h2}));
  EXPECT_EQ(r.status, 200) << r.body << r.error;
  EXPECT_EQ(r.body, "success");
  EXPECT_EQ(bus->size(), 0u);
  EXPECT_EQ(api.requests().size(), 2u);
}

TEST_F(bitbucketserver_changes, without_one_event_per_change_the_body_is_published_as_it_came) {
  api.set_commit_pull_requests("PROJ/repo", "h1", {"OPEN"});
  auto source = start(false, true);
  auto body = delivery({main_h1, dev_h2});
  auto r = post(body);
  EXPECT_EQ(r.status, 200) << r.body << r.error;
  auto got = bus->wait_for(1, 10s);
  ASSERT_EQ(got.size(), 1u);
  // Argo's quirk: the dropped change is still in the published body.
  EXPECT_EQ(body_of(got[0].data), R"({"eventKey":"repo:refs_changed","date":"2024-01-01T00:00:00)"
                                  R"(+0000","actor":{"name":"ada \u003ca\u003e","id":3,)"
                                  R"("unknown":true},"repository":{"slug":"repo","project":)"
                                  R"({"key":"PROJ"}},"changes":[)"
                                    + main_h1 + "," + dev_h2 + "]}");
  EXPECT_EQ(api.requests().size(), 2u);
}

TEST_F(bitbucketserver_changes, an_api_error_is_argos_400_and_no_event) {
  api.set_down(true);
  auto source = start(false, true);
  auto r = post(delivery({main_h1}));
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, "filtering changes for open prs: checking if changed branch ref has an open "
                    "pull request: getting commit pull requests for project PROJ, repository "
                    "repo and commit h1: calling endpoint '"
                      + api.base_url() + prs_of("h1", 0).substr(5)
                      + "' failed: status 503: response body: service unavailable");
  EXPECT_EQ(bus->size(), 0u);
}

TEST_F(bitbucketserver_changes, a_bus_refusing_one_of_the_events_is_a_503) {
  auto source = start(true, false);
  bus->refuse_next(1);
  auto r = post(delivery({main_h1, dev_h2}));
  EXPECT_EQ(r.status, 503) << r.body;
  EXPECT_EQ(bus->refused(), 1);
  EXPECT_EQ(bus->size(), 1u); // the other was taken: the producer retries the request
}

TEST_F(bitbucketserver_changes, a_body_that_does_not_decode_is_argos_400) {
  auto source = start(true, false);
  auto r = post(R"({"changes":[{"toHash":7}]})");
  EXPECT_EQ(r.status, 400);
  EXPECT_EQ(r.body, "decoding repo:refs_changed webhook: json: cannot unmarshal number into Go "
                    "struct field refsChangedWebHookEventChange.changes.toHash of type string");
  EXPECT_EQ(bus->size(), 0u);
}
