// The durable consumer names of the JetStream bus are what an autoscaler is configured with
// (KEDA's nats-jetstream scaler): stable, and the one deploy/overlays/keda-jetstream names.

#include <fstream>
#include <sstream>

#include <gtest/gtest.h>

#include "bus/jetstream_subscription.hpp"

using ganglion::nats::consumer_name;

TEST(jetstream_consumer_name, is_the_sensor_and_a_hash_of_its_dependency) {
  EXPECT_EQ(consumer_name("webhook", "webhook", "example"), "webhook_1ee4d9b283bb366f");
  EXPECT_NE(consumer_name("webhook", "webhook", "other"), consumer_name("webhook", "webhook", "example"));
  EXPECT_EQ(consumer_name("ns/s.1", "a", "b").rfind("ns_s_1_", 0), 0u);
}

TEST(jetstream_consumer_name, the_keda_overlay_names_the_quick_starts_consumer) {
  std::ifstream file{std::string(GANGLION_SOURCE_DIR) +
                     "/deploy/overlays/keda-jetstream/scaledobject.yaml"};
  ASSERT_TRUE(file) << "deploy/overlays/keda-jetstream/scaledobject.yaml is missing";
  std::stringstream text;
  text << file.rdbuf();
  EXPECT_NE(text.str().find("consumer: " + consumer_name("webhook", "webhook", "example")),
            std::string::npos);
}
