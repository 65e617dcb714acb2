// The requests of Gerrit's webhooks plugin API as Argo's go-gerrit client builds them.

#include <gtest/gtest.h>

#include "client/webhooks_api.hpp"

namespace gerrit = ganglion::gerrit::detail;

TEST(gerrit_webhooks_api, hook_body_is_go_json_with_omitempty_fields_and_a_newline) {
  EXPECT_EQ(
    gerrit::hook_body({"https://x/gerrit?a=1&b=2", {"patchset-created", "ref-updated"}, 3, true}),
    "{\"url\":\"https://x/gerrit?a=1\\u0026b=2\","
    "\"events\":[\"patchset-created\",\"ref-updated\"],\"maxTries\":3,\"sslVerify\":true}\n");
  EXPECT_EQ(gerrit::hook_body({"http://h/e", {}, 0, false}), "{\"url\":\"http://h/e\"}\n");
}

TEST(gerrit_webhooks_api, projects_and_remotes_are_query_escaped_under_the_authenticated_prefix) {
  EXPECT_EQ(ganglion::http::query_escape("whynowy/test a~b.c-d_e+"), "whynowy%2Ftest+a~b.c-d_e%2B");
  EXPECT_EQ(gerrit::remotes_url("https://review.example", "a/b"),
            "https://review.example/a/config/server/webhooks~projects/a%2Fb/remotes/");
  EXPECT_EQ(gerrit::remotes_url("https://review.example/r/", "p", std::string_view{"argo hook"}),
            "https://review.example/r/a/config/server/webhooks~projects/p/remotes/argo+hook/");
}
