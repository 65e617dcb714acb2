// A StorageGRID notification as Argo's storagegrid source reads it (url.QueryUnescape of the
// whole body, qson, json.Unmarshal into StorageGridNotification) and the event data it
// publishes; the expected texts are what Go writes.

#include <gtest/gtest.h>

#include "ganglion/http/hook_registrar.hpp"
#include "source/notification.hpp"

namespace ganglion::storagegrid::detail {
namespace {

constexpr const char* record_json =
  R"({"eventVersion":"2.0","eventSource":"sgws:s3","eventTime":"2019-02-27T21:15:09.120Z",)"
  R"("eventName":"ObjectCreated:Put","userIdentity":{"principalId":"11111"},)"
  R"("requestParameters":{"sourceIPAddress":"1.1.1.1"},)"
  R"("responseElements":{"x-amz-request-id":"12345678"},"s3":{"s3SchemaVersion":"1.0",)"
  R"("configurationId":"Object-Event","bucket":{"name":"my_bucket","ownerIdentity":)"
  R"({"principalId":"55555"},"arn":"urn:sgfs:s3:::my_bucket"},"object":{"key":"hello-world.txt",)"
  R"("size":6,"eTag":"4444","sequencer":"AAAA"}}})";

/// Argo's data of that record: `storageGridEventSource` is Argo's key, so `eventSource` is lost.
constexpr const char* record_data =
  R"({"eventVersion":"2.0","storageGridEventSource":"","eventTime":"2019-02-27T21:15:09.12Z",)"
  R"("eventName":"ObjectCreated:Put","userIdentity":{"principalId":"11111"},)"
  R"("requestParameters":{"sourceIPAddress":"1.1.1.1"},)"
  R"("responseElements":{"x-amz-request-id":"12345678"},"s3":{"s3SchemaVersion":"1.0",)"
  R"("configurationId":"Object-Event","bucket":{"name":"my_bucket","ownerIdentity":)"
  R"({"principalId":"55555"},"arn":"urn:sgfs:s3:::my_bucket"},"object":{"key":"hello-world.txt",)"
  R"("size":6,"eTag":"4444","sequencer":"AAAA"}}})";

/// The SNS-like form StorageGRID posts: `Action=Publish&Message=<url-encoded JSON>&…`.
std::string form(const std::string& message) {
  return "Action=Publish&Message=" + http::query_escape(message)
         + "&TopicArn=urn%3Asgws%3Asns%3A%3A%3Amy_topic&Version=2010-03-31";
}

std::string data_of(const std::string& body, std::map<std::string, std::string> metadata = {}) {
  std::string error;
  bool panic = false;
  auto n = read_notification(body, error, panic);
  if (!n)
    return std::string{panic ? "<panic: " : "<"} + error + ">";
  return event_data(*n, metadata);
}

std::string wrapped(const std::string& records) {
  return R"({"notification":{"Action":"Publish","Message":{"Records":)" + records
         + R"(},"TopicArn":"urn:sgws:sns:::my_topic","Version":"2010-03-31"}})";
}

TEST(storagegrid_notification, a_storagegrid_form_becomes_argos_event_data) {
  auto body = form(std::string{R"({"Records":[)"} + record_json + "]}");
  EXPECT_EQ(data_of(body, {{"team", "storage"}}),
            std::string{R"({"notification":{"Action":"Publish","Message":{"Records":[)"}
              + record_data
              + R"(]},"TopicArn":"urn:sgws:sns:::my_topic","Version":"2010-03-31"},)"
                R"("metadata":{"team":"storage"}})");
}

TEST(storagegrid_notification, missing_fields_are_gos_zero_values) {
  EXPECT_EQ(data_of("Action=Publish&TopicArn=urn%3Asgws%3Asns%3A%3A%3Amy_topic&Version=2010-03-31"),
            wrapped("null"));
  EXPECT_EQ(data_of(form(R"({"Records":[]})")), wrapped("[]"));
  EXPECT_EQ(
    data_of(form(R"({"Records":[null,{}]})")),
    wrapped(R"([{"eventVersion":"","storageGridEventSource":"","eventTime":"0001-01-01T00:00:00Z",)"
            R"("eventName":"","userIdentity":{"principalId":""},"requestParameters":)"
            R"({"sourceIPAddress":""},"responseElements":{"x-amz-request-id":""},"s3":)"
            R"({"s3SchemaVersion":"","configurationId":"","bucket":{"name":"","ownerIdentity":)"
            R"({"principalId":""},"arn":""},"object":{"key":"","size":0,"eTag":"",)"
            R"("sequencer":""}}},)"
            R"({"eventVersion":"","storageGridEventSource":"","eventTime":"0001-01-01T00:00:00Z",)"
            R"("eventName":"","userIdentity":{"principalId":""},"requestParameters":)"
            R"({"sourceIPAddress":""},"responseElements":{"x-amz-request-id":""},"s3":)"
            R"({"s3SchemaVersion":"","configurationId":"","bucket":{"name":"","ownerIdentity":)"
            R"({"principalId":""},"arn":""},"object":{"key":"","size":0,"eTag":"",)"
            R"("sequencer":""}}}])"));
}

/// The one record's `s3.object` of `data`.
std::string object_of(const std::string& data) {
  auto at = data.find(R"("object":)");
  return at == std::string::npos ? data : data.substr(at, data.find('}', at) - at + 1);
}

TEST(storagegrid_notification, keys_match_case_insensitively_and_strings_are_html_escaped) {
  auto body =
    "ACTION=Publish&message="
    + http::query_escape(R"({"records":[{"S3":{"OBJECT":{"KEY":"<a>\u0026","ſize":7}}}]})");
  auto data = data_of(body);
  EXPECT_EQ(object_of(data),
            R"("object":{"key":"\u003ca\u003e\u0026","size":7,"eTag":"","sequencer":""})")
    << data;
  EXPECT_NE(data.find(R"({"notification":{"Action":"Publish","Message":{"Records":[{)"),
            std::string::npos)
    << data;
}

TEST(storagegrid_notification, invalid_utf8_and_lone_surrogates_are_gos_replacement_character) {
  auto name_of = [](const std::string& escaped) {
    auto data = data_of(form(R"({"Records":[{"eventName":")" + escaped + R"("}]})"));
    auto at = data.find(R"("eventName":")");
    return at == std::string::npos ? data : data.substr(at + 13, data.find('"', at + 13) - at - 13);
  };
  EXPECT_EQ(name_of(R"(\ud800\ud83d\ude00\udc00x)"), "\xEF\xBF\xBD\xF0\x9F\x98\x80\xEF\xBF\xBDx");
  EXPECT_EQ(name_of(R"(\ud800\\ud800)"), "\xEF\xBF\xBD\\\\ud800");
  EXPECT_EQ(name_of("a\xFF"
                    "b"),
            "a\xEF\xBF\xBD"
            "b");
}

TEST(storagegrid_notification, the_last_of_duplicate_keys_wins_and_a_byte_order_mark_is_text) {
  auto data = data_of(form(R"({"Records":[{"eventName":"a","eventName":"b"}]})"));
  EXPECT_NE(data.find(R"("eventName":"b")"), std::string::npos) << data;
  // Not JSON to Go, so qson keeps it as a string (nlohmann alone would read the number).
  EXPECT_EQ(data_of("Version=\xEF\xBB\xBF"
                    "12"),
            R"({"notification":{"Action":"","Message":{"Records":null},"TopicArn":"",)"
            "\"Version\":\"\xEF\xBB\xBF"
            "12\"}}");
}

TEST(storagegrid_notification, size_goes_through_a_float64_as_qson_reads_it) {
  auto size = [](const std::string& v) {
    return object_of(data_of(form(R"({"Records":[{"s3":{"object":{"size":)" + v + "}}}]}")));
  };
  EXPECT_EQ(size("1e3"), R"("object":{"key":"","size":1000,"eTag":"","sequencer":""})");
  EXPECT_EQ(size("6.0"), R"("object":{"key":"","size":6,"eTag":"","sequencer":""})");
  EXPECT_EQ(size("9007199254740993"),
            R"("object":{"key":"","size":9007199254740992,"eTag":"","sequencer":""})");
  EXPECT_EQ(size("1.5").substr(0, 24), "<json: cannot unmarshal ");
  EXPECT_EQ(size("\"6\"").substr(0, 24), "<json: cannot unmarshal ");
  EXPECT_EQ(size("1e19").substr(0, 24), "<json: cannot unmarshal ");
  EXPECT_EQ(size("1e400"),
            "<qson: the value of \"Message\" is neither JSON nor a JSON string's text>");
}

TEST(storagegrid_notification, times_keep_their_offset_and_a_single_encoded_plus_is_a_space) {
  auto time_of = [](const std::string& body) {
    auto data = data_of(body);
    auto at = data.find(R"("eventTime":")");
    return at == std::string::npos ? data : data.substr(at + 13, data.find('"', at + 13) - at - 13);
  };
  auto record = [](const std::string& t) {
    return R"({"Records":[{"eventTime":")" + t + R"("}]})";
  };
  EXPECT_EQ(time_of(form(record("2019-02-27T21:15:09.000000000Z"))), "2019-02-27T21:15:09Z");
  EXPECT_EQ(time_of(form(record("2019-02-27T21:15:09.1234567891Z"))),
            "2019-02-27T21:15:09.123456789Z");
  EXPECT_EQ(time_of(form(record("2019-02-27T1:15:09,5-07:30"))), "2019-02-27T01:15:09.5-07:30");
  // `+` escaped once is unescaped twice (the body, then qson's value): a space, not a time.
  EXPECT_EQ(time_of(form(record("2019-02-27T21:15:09+02:00"))).substr(0, 15), "<parsing time \"");
  // Escaped twice, it survives; `+00:00` is Argo's local zone, UTC.
  auto twice = [&](const std::string& t) {
    return "Message=" + http::query_escape(http::query_escape(record(t)));
  };
  EXPECT_EQ(time_of(twice("2019-02-27T21:15:09+02:00")), "2019-02-27T21:15:09+02:00");
  EXPECT_EQ(time_of(twice("2019-02-27T21:15:09-00:00")), "2019-02-27T21:15:09Z");
  EXPECT_EQ(time_of(form(record("2019-02-29T21:15:09Z"))).substr(0, 15), "<parsing time \"");
  EXPECT_EQ(time_of(form(R"({"Records":[{"eventTime":1}]})")).substr(0, 20),
            "<Time.UnmarshalJSON:");
}

TEST(storagegrid_notification, qson_merges_repeated_keys_and_nests_bracketed_ones) {
  auto two = "Message=" + http::query_escape(R"({"Records":[{"eventName":"a"}]})")
             + "&Message=" + http::query_escape(R"({"Records":[{"eventName":"b"}]})");
  auto data = data_of(two);
  EXPECT_NE(data.find(R"("eventName":"a")"), std::string::npos) << data;
  EXPECT_NE(data.find(R"("eventName":"b")"), std::string::npos) << data; // arrays appended
  auto bracketed = data_of("Message[Records][][s3][object][key]=a.txt&Action=Publish&Action=Again");
  EXPECT_EQ(object_of(bracketed), R"("object":{"key":"a.txt","size":0,"eTag":"","sequencer":""})");
  EXPECT_NE(bracketed.find(R"("Action":"Again")"), std::string::npos) << bracketed;
}

TEST(storagegrid_notification, what_argo_drops_and_where_go_panics) {
  EXPECT_EQ(data_of(""), "<qson: invalid url query param provided>");
  EXPECT_EQ(data_of("Action=Publish&"), "<qson: invalid url query param provided>");
  EXPECT_EQ(data_of("Action=%zz").substr(0, 38), "<failed to unescape request body url: ");
  EXPECT_EQ(data_of("Action=%25zz").substr(0, 20), "<invalid URL escape ");
  // The body is unescaped whole before qson splits it: an `&` in the JSON cuts the message.
  EXPECT_EQ(data_of(form(R"({"Records":[{"eventName":"a&b"}]})")),
            "<qson: the value of \"Message\" is neither JSON nor a JSON string's text>");
  EXPECT_EQ(data_of("Version=1").substr(0, 24), "<json: cannot unmarshal ");
  EXPECT_EQ(data_of("Subject=say \"hi"),
            "<qson: the value of \"Subject\" is neither JSON nor a JSON string's text>");
  EXPECT_EQ(data_of("Message=" + http::query_escape(R"({"Records":{}})")).substr(0, 24),
            "<json: cannot unmarshal ");
  // Go's decoder nests 10000 levels deep, no more (then the value is not JSON, nor a string).
  auto nested = [](int levels) {
    std::string v;
    for (int i = 0; i < levels; ++i)
      v += R"({"a":)";
    return "Action=Publish&Extra=" + v + "1" + std::string(static_cast<std::size_t>(levels), '}');
  };
  EXPECT_EQ(data_of(nested(10000)).substr(0, 35), R"({"notification":{"Action":"Publish")");
  EXPECT_EQ(data_of(nested(10001)),
            "<qson: the value of \"Extra\" is neither JSON nor a JSON string's text>");
  EXPECT_EQ(data_of("a[b=1").substr(0, 8), "<panic: ");
  EXPECT_EQ(data_of("a[x]=1&a[]=2").substr(0, 8), "<panic: ");
  EXPECT_EQ(data_of("a[]=1&a[x]=2").substr(0, 8), "<panic: ");
}

notification with_key(const std::string& key, bool records = true) {
  notification n;
  n.records_nil = !records;
  if (records) {
    n.records.emplace_back().object_key = key;
    n.size = 1;
  }
  return n;
}

TEST(storagegrid_notification, the_filter_is_argos_on_the_first_records_key) {
  key_filter both{"hello-", ".txt"};
  EXPECT_EQ(passes(with_key("hello-world.txt"), both), true);
  EXPECT_EQ(passes(with_key("hello-world.csv"), both), false);
  EXPECT_EQ(passes(with_key("bye.txt"), both), false);
  EXPECT_EQ(passes(with_key("bye.txt"), key_filter{"", ".txt"}), true);
  EXPECT_EQ(passes(with_key("x"), key_filter{"x", ""}), true);
  EXPECT_EQ(passes(with_key("x"), std::nullopt), true);
  // No record: Go indexes an empty slice only when a prefix or suffix is set.
  EXPECT_EQ(passes(with_key("", false), key_filter{}), true);
  EXPECT_EQ(passes(with_key("", false), std::nullopt), true);
  EXPECT_EQ(passes(with_key("", false), both), std::nullopt);
}

} // namespace
} // namespace ganglion::storagegrid::detail
