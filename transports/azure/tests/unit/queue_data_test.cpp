// What the azureQueueStorage source reads and publishes: Azure's QueueMessagesList and Error
// answers, InsertionTime as Go writes the time.Time, and Argo's AzureQueueStorageEventData byte
// for byte (json.Marshal: []byte as base64, json.RawMessage compacted, HTML escaping,
// metadata omitempty).

#include <stdexcept>

#include <gtest/gtest.h>

#include "client/queue_xml.hpp"
#include "source/queue_event_data.hpp"

using namespace ganglion::azure::detail;

namespace {

constexpr const char* two_messages = R"(<?xml version="1.0" encoding="utf-8"?>
<QueueMessagesList>
  <QueueMessage>
    <MessageId>5974b586-0df3-4e2d-ad0c-18e3892bfca2</MessageId>
    <InsertionTime>Fri, 09 Oct 2009 21:04:30 GMT</InsertionTime>
    <ExpirationTime>Fri, 16 Oct 2009 21:04:30 GMT</ExpirationTime>
    <PopReceipt>YzQ4Yzg1MDItYTc0Ny00OWNjLTkxYTUtZGM0MDFiZDAwYzEw</PopReceipt>
    <TimeNextVisible>Fri, 09 Oct 2009 23:29:20 GMT</TimeNextVisible>
    <DequeueCount>1</DequeueCount>
    <MessageText>a &lt;b&gt; &amp; &#233;</MessageText>
  </QueueMessage>
  <QueueMessage><MessageId>m2</MessageId><InsertionTime>Mon, 29 Feb 2016 7:05:09 GMT</InsertionTime><PopReceipt>p2</PopReceipt><DequeueCount>3</DequeueCount><MessageText><![CDATA[{"a": [1, 2]}]]></MessageText></QueueMessage>
</QueueMessagesList>)";

queue_message message(std::string text) {
  return {"id-1", "2009-10-09T21:04:30Z", "pop", 1, std::move(text)};
}

std::string data(const queue_message& m, queue_data_options o) {
  std::string error;
  auto out = queue_event_data(m, o, error);
  return out ? *out : "error: " + error;
}

} // namespace

TEST(azure_queue_xml, messages_are_read_with_their_text_decoded) {
  auto messages = parse_queue_messages(two_messages);
  ASSERT_EQ(messages.size(), 2u);
  EXPECT_EQ(messages[0].id, "5974b586-0df3-4e2d-ad0c-18e3892bfca2");
  EXPECT_EQ(messages[0].insertion_time, "2009-10-09T21:04:30Z");
  EXPECT_EQ(messages[0].pop_receipt, "YzQ4Yzg1MDItYTc0Ny00OWNjLTkxYTUtZGM0MDFiZDAwYzEw");
  EXPECT_EQ(messages[0].dequeue_count, 1);
  EXPECT_EQ(messages[0].text, "a <b> & \xc3\xa9");
  EXPECT_EQ(messages[1].insertion_time, "2016-02-29T07:05:09Z");
  EXPECT_EQ(messages[1].text, R"({"a": [1, 2]})");
  EXPECT_EQ(messages[1].dequeue_count, 3);
  EXPECT_TRUE(parse_queue_messages("<QueueMessagesList />").empty());
}

TEST(azure_queue_xml, what_is_not_a_message_list_is_refused) {
  auto error_of = [](const std::string& xml) {
    try {
      parse_queue_messages(xml);
    } catch (const std::runtime_error& e) {
      return std::string{e.what()};
    }
    return std::string{"parsed"};
  };
  EXPECT_NE(error_of("<QueueMessagesList><QueueMessage>").find("not XML"), std::string::npos);
  EXPECT_NE(error_of("<Other/>").find("not a QueueMessagesList"), std::string::npos);
  EXPECT_NE(error_of("<!DOCTYPE x [<!ENTITY a \"b\">]><QueueMessagesList/>").find("DTD"),
            std::string::npos);
  EXPECT_NE(error_of("<QueueMessagesList><QueueMessage><InsertionTime>2009-10-09T21:04:30Z"
                     "</InsertionTime></QueueMessage></QueueMessagesList>")
              .find("as \"Mon, 02 Jan 2006 15:04:05 MST\""),
            std::string::npos);
}

TEST(azure_queue_xml, error_answers_give_code_and_message) {
  auto e = parse_storage_error("<?xml version=\"1.0\" encoding=\"utf-8\"?><Error><Code>"
                               "QueueNotFound</Code><Message>The specified queue does not "
                               "exist.\nRequestId:1\nTime:2</Message></Error>");
  EXPECT_EQ(e.code, "QueueNotFound");
  EXPECT_EQ(e.message, "The specified queue does not exist.\nRequestId:1\nTime:2");
  EXPECT_EQ(parse_storage_error("not xml").code, "");
}

TEST(azure_queue_xml, insertion_time_is_gos_rfc1123_parse_written_as_rfc3339) {
  EXPECT_EQ(rfc1123_as_go_json_time("Fri, 09 Oct 2009 21:04:30 GMT"), "2009-10-09T21:04:30Z");
  EXPECT_EQ(rfc1123_as_go_json_time("fri, 09 oct 2009 21:04:30 UTC"), "2009-10-09T21:04:30Z");
  EXPECT_EQ(rfc1123_as_go_json_time("Fri, 09 Oct 2009 21:04:30 GMT+2"),
            "2009-10-09T21:04:30+02:00");
  EXPECT_EQ(rfc1123_as_go_json_time("Fri, 09 Oct 2009 21:04:30 PST"), "2009-10-09T21:04:30Z");
  EXPECT_EQ(rfc1123_as_go_json_time("Fri, 09 Oct 2009 21:04:30"), "");
  EXPECT_EQ(rfc1123_as_go_json_time("Fri, 30 Feb 2009 21:04:30 GMT"), "");
  EXPECT_EQ(rfc1123_as_go_json_time("Fri, 09 Oct 2009 24:04:30 GMT"), "");
  EXPECT_EQ(rfc1123_as_go_json_time("Fri, 9 Oct 2009 21:04:30 GMT"), "");
  EXPECT_EQ(rfc1123_as_go_json_time("Fry, 09 Oct 2009 21:04:30 GMT"), "");
}

TEST(azure_queue_data, the_body_is_base64_bytes_without_json_body) {
  EXPECT_EQ(data(message("hello <world>"), {}),
            R"({"body":"aGVsbG8gPHdvcmxkPg==","messageID":"id-1",)"
            R"("insertionTime":"2009-10-09T21:04:30Z"})");
  EXPECT_EQ(data(message(""), {}),
            R"({"body":"","messageID":"id-1","insertionTime":"2009-10-09T21:04:30Z"})");
}

TEST(azure_queue_data, json_body_is_the_json_compacted_with_gos_escaping) {
  queue_data_options o;
  o.json_body = true;
  o.metadata = {{"b", "2"}, {"a", "<1>"}};
  EXPECT_EQ(data(message(" {\"x\": \"<&>\",\n \"y\": [1, 2]} "), o),
            R"({"body":{"x":"\u003c\u0026\u003e","y":[1,2]},"messageID":"id-1",)"
            R"("insertionTime":"2009-10-09T21:04:30Z","metadata":{"a":"\u003c1\u003e","b":"2"}})");
  EXPECT_EQ(data(message("not json"), o).rfind("error: the message is not valid JSON", 0), 0u)
    << data(message("not json"), o);
  EXPECT_EQ(data(message(""), o).rfind("error: the message is empty", 0), 0u);
}

TEST(azure_queue_data, decode_message_reads_url_then_standard_base64_before_json_body) {
  queue_data_options o;
  o.decode_message = true;
  o.json_body = true;
  // {"a":"~?"} in the URL alphabet, and in the standard one.
  EXPECT_EQ(data(message("eyJhIjoifj8ifQ=="), o),
            R"({"body":{"a":"~?"},"messageID":"id-1","insertionTime":"2009-10-09T21:04:30Z"})");
  o.json_body = false;
  EXPECT_EQ(data(message("-_8="), o),
            R"({"body":"+/8=","messageID":"id-1","insertionTime":"2009-10-09T21:04:30Z"})");
  EXPECT_EQ(data(message("+/8="), o),
            R"({"body":"+/8=","messageID":"id-1","insertionTime":"2009-10-09T21:04:30Z"})");
  EXPECT_EQ(data(message("a+b_"), o),
            "error: failed to base64 decode message: illegal base64 data at input byte 3");
  EXPECT_EQ(data(message("YQ"), o),
            "error: failed to base64 decode message: illegal base64 data at input byte 0");
}

TEST(azure_queue_data, message_ids_are_go_strings) {
  auto m = message("x");
  m.id = "a\"<b>";
  EXPECT_EQ(data(m, {}), R"({"body":"eA==","messageID":"a\"\u003cb\u003e",)"
                         R"("insertionTime":"2009-10-09T21:04:30Z"})");
}
