// The forms of a generic source's url and a custom trigger's serverURL.

#include <algorithm>

#include <gtest/gtest.h>

#include "client/target.hpp"

using namespace ganglion::grpc::detail;

namespace {

server_target parsed(const std::string& url) {
  std::string error;
  auto t = parse_target(url, error);
  EXPECT_TRUE(t) << url << ": " << error;
  return t.value_or(server_target{});
}

std::string refused(const std::string& url) {
  std::string error;
  EXPECT_FALSE(parse_target(url, error)) << url;
  return error;
}

} // namespace

TEST(grpc_target, a_dns_name_is_resolved_later) {
  auto t = parsed("signals.example.svc:8080");
  EXPECT_TRUE(t.needs_resolving());
  EXPECT_EQ(t.host, "signals.example.svc");
  EXPECT_EQ(t.port, "8080");
  EXPECT_EQ(t.authority(), "signals.example.svc:8080");
  EXPECT_EQ(parsed("dns:///signals:9000").host, "signals");
}

TEST(grpc_target, addresses_are_taken_as_they_are) {
  EXPECT_EQ(parsed("127.0.0.1:5000").addresses, std::vector<std::string>{"ipv4:127.0.0.1:5000"});
  EXPECT_EQ(parsed("[::1]:5000").addresses, std::vector<std::string>{"ipv6:[::1]:5000"});
  EXPECT_EQ(parsed("[::1]:5000").authority(), "[::1]:5000");
  auto list = parsed("ipv4:127.0.0.1:1,127.0.0.2:2");
  EXPECT_EQ(list.addresses, (std::vector<std::string>{"ipv4:127.0.0.1:1", "ipv4:127.0.0.2:2"}));
  EXPECT_EQ(list.host, "127.0.0.1");
  EXPECT_EQ(parsed("ipv6:[::1]:7").addresses, std::vector<std::string>{"ipv6:[::1]:7"});
}

TEST(grpc_target, other_forms_are_refused_with_the_reason) {
  EXPECT_NE(refused("signals").find("is not host:port"), std::string::npos);
  EXPECT_NE(refused("signals:0").find("from 1 to 65535"), std::string::npos);
  EXPECT_NE(refused("signals:99999").find("from 1 to 65535"), std::string::npos);
  EXPECT_NE(refused("http://signals:80").find("is not host:port"), std::string::npos);
  EXPECT_NE(refused("unix:/tmp/s.sock").find("is not host:port"), std::string::npos);
  EXPECT_NE(refused("ipv4:signals:80").find("is not an IPv4 address"), std::string::npos);
  EXPECT_NE(refused("ipv4:").find("no address"), std::string::npos);
  EXPECT_NE(refused("a:b:80").find("is not host:port"), std::string::npos);
}

TEST(grpc_target, localhost_resolves_to_its_loopback_addresses) {
  std::string error;
  auto addresses = resolve(parsed("localhost:9000"), error);
  ASSERT_FALSE(addresses.empty()) << error;
  EXPECT_NE(std::find(addresses.begin(), addresses.end(), "ipv4:127.0.0.1:9000"), addresses.end());
  EXPECT_EQ(resolve(parsed("127.0.0.2:1"), error), std::vector<std::string>{"ipv4:127.0.0.2:1"});
}
