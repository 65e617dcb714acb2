// hostAddress split as Go's net.SplitHostPort (what go-redis dials).

#include <gtest/gtest.h>

#include "client/address.hpp"

using namespace ganglion::redis;

TEST(redis_address, host_and_port) {
  std::string error;
  auto a = split_host_address("redis.argo-events.svc:6379", error);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->host, "redis.argo-events.svc");
  EXPECT_EQ(a->port, "6379");
  auto v6 = split_host_address("[::1]:7000", error);
  ASSERT_TRUE(v6);
  EXPECT_EQ(v6->host, "::1");
}

TEST(redis_address, what_is_refused) {
  std::string error;
  EXPECT_FALSE(split_host_address("redis", error));
  EXPECT_NE(error.find("missing port"), std::string::npos);
  EXPECT_FALSE(split_host_address("::1:7000", error));
  EXPECT_NE(error.find("too many colons"), std::string::npos);
  EXPECT_FALSE(split_host_address("redis:x", error));
  EXPECT_FALSE(split_host_address("redis:0", error));
  EXPECT_FALSE(split_host_address("redis:70000", error));
  EXPECT_FALSE(split_host_address("redis:", error));
}
