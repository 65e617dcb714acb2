// `--listen` and $PORT: the address every webhook is served on in one-port mode.

#include <stdexcept>

#include <gtest/gtest.h>

#include "ganglion/http/listen.hpp"

using ganglion::http::parse_listen;

TEST(listen_address, a_port_alone_or_after_a_colon_listens_on_every_interface) {
  EXPECT_EQ(parse_listen("8080").to_string(), "0.0.0.0:8080");
  EXPECT_EQ(parse_listen(":8080").to_string(), "0.0.0.0:8080");
  EXPECT_EQ(parse_listen("127.0.0.1:1").to_string(), "127.0.0.1:1");
  EXPECT_EQ(parse_listen("localhost:65535").port, 65535);
  auto v6 = parse_listen("[::1]:8080");
  EXPECT_EQ(v6.host, "::1");
  EXPECT_EQ(v6.to_string(), "[::1]:8080");
}

TEST(listen_address, what_is_not_an_address_is_named) {
  auto error_of = [](const char* text) {
    try {
      parse_listen(text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of("http"), "expected [HOST]:PORT or PORT, got 'http': the port is not a number");
  EXPECT_NE(error_of("").find("the port is not a number"), std::string::npos);
  EXPECT_NE(error_of("0").find("the port must be 1-65535"), std::string::npos);
  EXPECT_NE(error_of("65536").find("the port must be 1-65535"), std::string::npos);
  EXPECT_NE(error_of("host:").find("the port is not a number"), std::string::npos);
  EXPECT_NE(error_of("::1:80").find("an IPv6 host goes in brackets"), std::string::npos);
  EXPECT_NE(error_of("[::1").find("is not closed"), std::string::npos);
  EXPECT_NE(error_of("[::1]8080").find("no :PORT"), std::string::npos);
  EXPECT_NE(error_of("[]:80").find("the host is empty"), std::string::npos);
  EXPECT_NE(error_of("8080 ").find("the port is not a number"), std::string::npos);
}
