// The body of the hook Argo's go-bitbucket creates: json.Marshal of a map, keys sorted.

#include <gtest/gtest.h>

#include "client/cloud_api.hpp"

using ganglion::bitbucket::detail::hook_body;

TEST(bitbucket_cloud_api, hook_body_is_a_go_map_with_sorted_keys_and_go_escapes) {
  EXPECT_EQ(hook_body("https://x.example/push?a=1&b=<2>", {"repo:push", "pullrequest:created"}),
            R"({"active":true,"description":"webhook managed by Argo-Events",)"
            R"("events":["repo:push","pullrequest:created"],)"
            R"("url":"https://x.example/push?a=1\u0026b=\u003c2\u003e"})");
  EXPECT_EQ(hook_body("https://x", {}),
            R"({"active":true,"description":"webhook managed by Argo-Events","events":null,)"
            R"("url":"https://x"})");
}
