// One GitLab delivery → Argo's event data or a refusal, byte for byte; the hook bodies go-gitlab
// sends for Argo's options; the API root.

#include <gtest/gtest.h>

#include "client/hook_options.hpp"
#include "client/hooks_api.hpp"
#include "source/delivery.hpp"

namespace ganglion::gitlab::detail {
namespace {

http::request delivery(std::string body, std::string token) {
  http::request r;
  r.method = "POST";
  r.target = r.path = "/push";
  r.headers = {{"Content-Type", "application/json"}, {"X-Gitlab-Event", "Push Hook"}};
  if (!token.empty())
    r.headers.emplace_back("X-Gitlab-Token", token);
  r.body = std::move(body);
  return r;
}

TEST(gitlab_delivery, the_body_is_kept_as_raw_json_with_the_headers_and_metadata) {
  auto out = handle_delivery(delivery("{ \"object_kind\": \"push\", \"b\": \"<x>\" }", "s3cret"),
                             {"s3cret", {{"team", "a"}}});
  ASSERT_TRUE(out.data) << out.reply.body;
  EXPECT_EQ(*out.data,
            R"({"headers":{"Content-Type":["application/json"],"X-Gitlab-Event":["Push Hook"],)"
            R"("X-Gitlab-Token":["s3cret"]},"body":{"object_kind":"push","b":"\u003cx\u003e"},)"
            R"("metadata":{"team":"a"}})");
}

TEST(gitlab_delivery, a_wrong_or_missing_token_is_refused) {
  auto wrong = handle_delivery(delivery("{}", "nope"), {"s3cret", {}});
  EXPECT_FALSE(wrong.data);
  EXPECT_EQ(wrong.reply.status, 400);
  EXPECT_EQ(wrong.reply.body, "token mismatch");
  EXPECT_EQ(wrong.rejected_reason, "unauthorized");
  EXPECT_FALSE(handle_delivery(delivery("{}", ""), {"s3cret", {}}).data);
  EXPECT_TRUE(handle_delivery(delivery("{}", ""), {}).data);
}

TEST(gitlab_delivery, a_body_that_is_not_json_is_refused) {
  for (const char* body : {"", "push", "{\"a\":"}) {
    auto out = handle_delivery(delivery(body, ""), {});
    EXPECT_FALSE(out.data) << body;
    EXPECT_EQ(out.reply.body, "invalid event");
    EXPECT_EQ(out.rejected_reason, "bad_request");
  }
}

TEST(gitlab_hook_options, the_project_body_is_go_gitlabs_for_argos_options) {
  hook_request r{"http://hooks.example/push?a&b", false, {"PushEvents", "DeploymentEvents"}, "t"};
  EXPECT_EQ(project_hook_body(r),
            R"({"confidential_issues_events":false,"confidential_note_events":false,)"
            R"("deployment_events":true,"enable_ssl_verification":false,"issues_events":false,)"
            R"("job_events":false,"merge_requests_events":false,"note_events":false,)"
            R"("pipeline_events":false,"push_events":true,"emoji_events":false,)"
            R"("tag_push_events":false,"token":"t","url":"http://hooks.example/push?a\u0026b",)"
            R"("wiki_page_events":false})");
}

TEST(gitlab_hook_options, the_group_body_has_only_what_argo_copies) {
  hook_request r{"http://h/g", true, {"EmojiEvents", "ReleasesEvents"}, ""};
  EXPECT_EQ(group_hook_body(r),
            R"({"url":"http://h/g","push_events":false,"issues_events":false,)"
            R"("confidential_issues_events":false,"merge_requests_events":false,)"
            R"("tag_push_events":false,"note_events":false,"confidential_note_events":false,)"
            R"("job_events":false,"pipeline_events":false,"wiki_page_events":false,)"
            R"("emoji_events":true,"enable_ssl_verification":true})");
}

TEST(gitlab_hook_options, the_flags_are_the_boolean_fields) {
  EXPECT_TRUE(is_hook_flag("PushEvents"));
  EXPECT_TRUE(is_hook_flag("VulnerabilityEvents"));
  EXPECT_FALSE(is_hook_flag("URL"));
  EXPECT_FALSE(is_hook_flag("Token"));
  EXPECT_FALSE(is_hook_flag("pushEvents"));
}

TEST(gitlab_hooks_api, the_api_root_is_go_gitlabs) {
  EXPECT_EQ(api_root("https://gitlab.com"), "https://gitlab.com/api/v4/");
  EXPECT_EQ(api_root("https://gitlab.example/"), "https://gitlab.example/api/v4/");
  EXPECT_EQ(api_root("https://gitlab.example/api/v4"), "https://gitlab.example/api/v4/");
  EXPECT_EQ(hooks_api::project_scope("whynowy/test"), "projects/whynowy%2Ftest");
  EXPECT_EQ(hooks_api::group_scope("7"), "groups/7");
}

} // namespace
} // namespace ganglion::gitlab::detail
