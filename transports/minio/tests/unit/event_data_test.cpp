// The minio source's event data: a stream line decoded as minio-go decodes it and marshaled as
// Argo's MinioEventData, byte for byte; the listen request minio-go sends.

#include <gtest/gtest.h>

#include "client/listen_request.hpp"
#include "source/event_data.hpp"

using namespace ganglion::minio::detail;

namespace {

// A record as MinIO writes it (fields in MinIO's order, some minio-go does not know).
const char* minio_line =
  R"({"EventName":"s3:ObjectCreated:Put","Key":"input/hello.txt","Records":[{"eventVersion":"2.0",)"
  R"("eventSource":"minio:s3","awsRegion":"","eventTime":"2024-01-01T00:00:00.000Z",)"
  R"("eventName":"s3:ObjectCreated:Put","userIdentity":{"principalId":"minio"},)"
  R"("requestParameters":{"sourceIPAddress":"10.0.0.1","region":"","principalId":"minio"},)"
  R"("responseElements":{"x-amz-request-id":"17D","content-length":"0"},)"
  R"("s3":{"s3SchemaVersion":"1.0","configurationId":"Config","bucket":{"name":"input",)"
  R"("ownerIdentity":{"principalId":"minio"},"arn":"arn:aws:s3:::input"},"object":{)"
  R"("key":"hello.txt","size":12,"eTag":"6f5902ac237024bdd0c176cb93063dc4",)"
  R"("contentType":"text/plain","userMetadata":{"content-type":"text/plain"},)"
  R"("sequencer":"17D6B2A3C5F1D3E0"}},"source":{"host":"10.0.0.1","port":"",)"
  R"("userAgent":"MinIO (linux; amd64) minio-go/v7.0.70 mc/RELEASE"}}]})";

} // namespace

TEST(minio_event_data, a_minio_record_as_argo_marshals_it) {
  auto data = minio_event_data(minio_line, {{"team", "data"}, {"env", "<prod>"}});
  ASSERT_TRUE(data);
  EXPECT_EQ(
    *data,
    R"({"notification":[{"eventVersion":"2.0","eventSource":"minio:s3","awsRegion":"",)"
    R"("eventTime":"2024-01-01T00:00:00.000Z","eventName":"s3:ObjectCreated:Put",)"
    R"("userIdentity":{"principalId":"minio"},"requestParameters":{"principalId":"minio",)"
    R"("region":"","sourceIPAddress":"10.0.0.1"},"responseElements":{"content-length":"0",)"
    R"("x-amz-request-id":"17D"},"s3":{"s3SchemaVersion":"1.0","configurationId":"Config",)"
    R"("bucket":{"name":"input","ownerIdentity":{"principalId":"minio"},)"
    R"("arn":"arn:aws:s3:::input"},"object":{"key":"hello.txt","size":12,)"
    R"("eTag":"6f5902ac237024bdd0c176cb93063dc4","contentType":"text/plain",)"
    R"("userMetadata":{"content-type":"text/plain"},"sequencer":"17D6B2A3C5F1D3E0"}},)"
    R"("source":{"host":"10.0.0.1","port":"","userAgent":"MinIO (linux; amd64) )"
    R"(minio-go/v7.0.70 mc/RELEASE"}}],"metadata":{"env":"\u003cprod\u003e","team":"data"}})");
}

TEST(minio_event_data, lines_without_records_are_skipped) {
  EXPECT_FALSE(minio_event_data("", {}));
  EXPECT_FALSE(minio_event_data("   ", {}));
  EXPECT_FALSE(minio_event_data(R"({"Records":null})", {}));
  EXPECT_FALSE(minio_event_data(R"({"Records":[]})", {}));
  EXPECT_FALSE(minio_event_data(R"({})", {}));
}

TEST(minio_event_data, what_minio_gos_decoder_refuses_is_an_error) {
  EXPECT_THROW(minio_event_data("not json", {}), std::runtime_error);
  EXPECT_THROW(minio_event_data("[]", {}), std::runtime_error);
  EXPECT_THROW(minio_event_data(R"({"Records":{}})", {}), std::runtime_error);
  EXPECT_THROW(minio_event_data(R"({"Records":[{"eventName":3}]})", {}), std::runtime_error);
  EXPECT_THROW(minio_event_data(R"({"Records":[{"s3":{"object":{"size":1.5}}}]})", {}),
               std::runtime_error);
  EXPECT_THROW(minio_event_data(R"({"Records":[{"requestParameters":{"a":1}}]})", {}),
               std::runtime_error);
}

TEST(minio_event_data, zero_values_and_omitted_fields) {
  auto data = minio_event_data(R"({"Records":[null,{"s3":{"object":{"size":0,"userMetadata":{}}},)"
                               R"("requestParameters":{}}]})",
                               {});
  ASSERT_TRUE(data);
  const std::string zero =
    R"({"eventVersion":"","eventSource":"","awsRegion":"","eventTime":"","eventName":"",)"
    R"("userIdentity":{"principalId":""},"requestParameters":null,"responseElements":null,)"
    R"("s3":{"s3SchemaVersion":"","configurationId":"","bucket":{"name":"",)"
    R"("ownerIdentity":{"principalId":""},"arn":""},"object":{"key":"","sequencer":""}},)"
    R"("source":{"host":"","port":"","userAgent":""}})";
  auto second = zero;
  second.replace(second.find(R"("requestParameters":null)"), 24, R"("requestParameters":{})");
  EXPECT_EQ(*data, R"({"notification":[)" + zero + "," + second + "]}");
}

TEST(minio_listen_request, url_as_minio_go_encodes_it) {
  listen_target t{"minio:9000", true,  "input", {"s3:ObjectCreated:*", "s3:ObjectRemoved:Delete"},
                  "in dir/",    ".csv"};
  EXPECT_EQ(listen_url(t),
            "http://minio:9000/input?events=s3%3AObjectCreated%3A%2A"
            "&events=s3%3AObjectRemoved%3ADelete&ping=10&prefix=in+dir%2F&suffix=.csv");
  t.insecure = false;
  t.events.clear();
  t.prefix.clear();
  EXPECT_EQ(listen_url(t), "https://minio:9000/input?ping=10&prefix=&suffix=.csv");
}

TEST(minio_listen_request, endpoint_and_bucket_rules) {
  EXPECT_EQ(endpoint_problem("minio:9000"), "");
  EXPECT_EQ(endpoint_problem("minio.example.com"), "");
  EXPECT_NE(endpoint_problem("https://minio:9000"), "");
  EXPECT_NE(endpoint_problem("minio:9000/path"), "");
  EXPECT_NE(endpoint_problem("minio:port"), "");
  EXPECT_EQ(bucket_name_problem("input"), "");
  EXPECT_EQ(bucket_name_problem("My_Bucket:1"), "");
  EXPECT_NE(bucket_name_problem("ab"), "");
  EXPECT_NE(bucket_name_problem("a..b"), "");
  EXPECT_NE(bucket_name_problem("192.168.1.1"), "");
  EXPECT_NE(bucket_name_problem("-abc"), "");
}
