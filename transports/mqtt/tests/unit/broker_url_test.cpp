// The broker url as paho reads it, limited to what libmosquitto connects to.

#include <gtest/gtest.h>

#include "client/broker_url.hpp"

using ganglion::mqtt::parse_broker_url;

TEST(mqtt_broker_url, plain_and_tls_schemes) {
  std::string error;
  for (const char* plain : {"tcp://h:1883", "mqtt://h:1883", "TCP://h:1883", "h:1883"}) {
    auto a = parse_broker_url(plain, error);
    ASSERT_TRUE(a) << plain << ": " << error;
    EXPECT_FALSE(a->tls) << plain;
    EXPECT_EQ(a->host, "h");
    EXPECT_EQ(a->port, 1883);
  }
  for (const char* secure : {"ssl://h:8883", "tls://h:8883", "mqtts://h:8883",
                             "mqtt+ssl://h:8883", "tcps://h:8883"}) {
    auto a = parse_broker_url(secure, error);
    ASSERT_TRUE(a) << secure << ": " << error;
    EXPECT_TRUE(a->tls) << secure;
  }
}

TEST(mqtt_broker_url, ipv6_path_and_user_info) {
  std::string error;
  auto a = parse_broker_url("tcp://user:pw@[::1]:1884/ignored", error);
  ASSERT_TRUE(a) << error;
  EXPECT_EQ(a->host, "::1");
  EXPECT_EQ(a->port, 1884);
  EXPECT_TRUE(a->has_user_info);
}

TEST(mqtt_broker_url, refused_urls_say_why) {
  std::string error;
  EXPECT_FALSE(parse_broker_url("wss://h:443/mqtt", error));
  EXPECT_NE(error.find("WebSocket"), std::string::npos) << error;
  EXPECT_FALSE(parse_broker_url("unix:///run/mqtt.sock", error));
  EXPECT_NE(error.find("unix://"), std::string::npos) << error;
  EXPECT_FALSE(parse_broker_url("tcp://h", error));
  EXPECT_NE(error.find("no port"), std::string::npos) << error;
  EXPECT_FALSE(parse_broker_url("tcp://:1883", error));
  EXPECT_NE(error.find("no host"), std::string::npos) << error;
  EXPECT_FALSE(parse_broker_url("tcp://h:x1", error));
  EXPECT_NE(error.find("not a number"), std::string::npos) << error;
  EXPECT_FALSE(parse_broker_url("amqp://h:5672", error));
  EXPECT_NE(error.find("unknown scheme amqp://"), std::string::npos) << error;
}
