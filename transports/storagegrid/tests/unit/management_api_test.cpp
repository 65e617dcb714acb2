// The request bodies Argo's storagegrid source sends to StorageGRID's management API, byte for
// byte as Go's json.Marshal and Argo's template write them.

#include <gtest/gtest.h>

#include "client/management_api.hpp"

namespace ganglion::storagegrid::detail {
namespace {

TEST(storagegrid_management_api, the_endpoint_body_is_argos_create_endpoint_request) {
  EXPECT_EQ(endpoint_body("example", "http://hooks.example/<x>", "urn:sgws:sns:::topic"),
            R"({"displayName":"example","endpointURI":"http://hooks.example/\u003cx\u003e",)"
            R"("endpointURN":"urn:sgws:sns:::topic","authType":"anonymous","insecureTLS":true})");
}

TEST(storagegrid_management_api, the_notification_is_argos_template_in_a_json_string) {
  auto xml = notification_xml("example", "urn:sgws:sns:::topic",
                              {"s3:ObjectCreated:*", "s3:ObjectRemoved:Delete"});
  EXPECT_EQ(xml, "\n<NotificationConfiguration>\n\t<TopicConfiguration>\n\t  <Id>example</Id>\n"
                 "\t  <Topic>urn:sgws:sns:::topic</Topic>\n"
                 "\t  <Event>s3:ObjectCreated:*</Event>\n<Event>s3:ObjectRemoved:Delete</Event>\n"
                 "\t</TopicConfiguration>\n</NotificationConfiguration>\n\n");
  EXPECT_EQ(notification_body(xml),
            R"({"notification":"\n\u003cNotificationConfiguration\u003e\n\t)"
            R"(\u003cTopicConfiguration\u003e\n\t  \u003cId\u003eexample\u003c/Id\u003e\n\t  )"
            R"(\u003cTopic\u003eurn:sgws:sns:::topic\u003c/Topic\u003e\n\t  )"
            R"(\u003cEvent\u003es3:ObjectCreated:*\u003c/Event\u003e\n)"
            R"(\u003cEvent\u003es3:ObjectRemoved:Delete\u003c/Event\u003e\n\t)"
            R"(\u003c/TopicConfiguration\u003e\n\u003c/NotificationConfiguration\u003e\n\n"})");
  EXPECT_EQ(
    notification_xml("e", "t", {}),
    "\n<NotificationConfiguration>\n\t<TopicConfiguration>\n\t  <Id>e</Id>\n"
    "\t  <Topic>t</Topic>\n\t  \n\t</TopicConfiguration>\n</NotificationConfiguration>\n\n");
}

TEST(storagegrid_management_api, an_error_answers_message_text) {
  EXPECT_EQ(error_text(R"({"code":401,"message":{"text":"unauthorized","key":"x"}})"),
            "unauthorized");
  EXPECT_EQ(error_text("<html>"), "");
  EXPECT_EQ(error_text(R"({"message":"flat"})"), "");
}

} // namespace
} // namespace ganglion::storagegrid::detail
