// Azure Storage's Shared Key and the storage connection string. The expected signatures were
// computed outside ganglion: with Python's hmac and base64 over the string to sign written out
// by hand (the literals), and with OpenSSL's HMAC in the test itself.

#include <chrono>
#include <stdexcept>

#include <gtest/gtest.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "client/queue_api.hpp"
#include "client/shared_key.hpp"
#include "client/storage_account.hpp"
#include "ganglion/dsl/go/codec.hpp"

using namespace ganglion::azure::detail;

namespace {

constexpr const char* dev_key =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/// Sun, 06 Dec 2026 00:00:00 GMT.
std::chrono::system_clock::time_point at_midnight() {
  return std::chrono::system_clock::time_point{std::chrono::seconds{1796515200}};
}

std::string openssl_signature(const std::string& key, const std::string& text) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest, &length);
  return ganglion::dsl::base64_encode(std::string(reinterpret_cast<char*>(digest), length));
}

std::string header(const ganglion::http::client_request& r, const std::string& name) {
  for (const auto& [n, v] : r.headers)
    if (n == name)
      return v;
  return "<absent>";
}

queue_address azurite_orders() {
  return {parse_storage_connection_string(
            std::string{"DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="}
            + dev_key + ";QueueEndpoint=http://127.0.0.1:10001/devstoreaccount1;"),
          "orders"};
}

} // namespace

TEST(azure_shared_key, http_date_is_gos_time_format) {
  EXPECT_EQ(http_date(at_midnight()), "Sun, 06 Dec 2026 00:00:00 GMT");
  EXPECT_EQ(http_date(at_midnight() + std::chrono::hours(24 * 31 + 13) + std::chrono::seconds(5)),
            "Wed, 06 Jan 2027 13:00:05 GMT");
}

TEST(azure_shared_key, string_to_sign_is_azures) {
  auto text = shared_key_string_to_sign(
    "PUT",
    {{"Content-Type", "application/xml"},
     {"Content-Length", "0"},
     {"X-Ms-Date", "Sun, 06 Dec 2026 00:00:00 GMT"},
     {"x-ms-meta-b", "2"},
     {"x-ms-meta-a", "1"},
     {"Range", "bytes=0-9"}},
    "acct", "/q%20x", {{"timeout", "30"}, {"Comp", "metadata"}, {"timeout", "10"}});
  EXPECT_EQ(text, "PUT\n\n\n\n\napplication/xml\n\n\n\n\n\nbytes=0-9\n"
                  "x-ms-date:Sun, 06 Dec 2026 00:00:00 GMT\nx-ms-meta-a:1\nx-ms-meta-b:2\n"
                  "/acct/q%20x\ncomp:metadata\ntimeout:10,30");
}

TEST(azure_shared_key, get_messages_is_signed_as_the_sdk_signs_it) {
  auto r = get_messages_request(azurite_orders(), 10, 120, at_midnight());
  EXPECT_EQ(r.method, "GET");
  EXPECT_EQ(r.url, "http://127.0.0.1:10001/devstoreaccount1/orders/messages"
                   "?numofmessages=10&visibilitytimeout=120");
  EXPECT_EQ(header(r, "x-ms-version"), "2018-03-28");
  EXPECT_EQ(header(r, "x-ms-date"), "Sun, 06 Dec 2026 00:00:00 GMT");
  EXPECT_EQ(header(r, "Accept"), "application/xml");
  // Python: hmac.new(b64decode(key), string_to_sign, sha256).
  EXPECT_EQ(header(r, "Authorization"),
            "SharedKey devstoreaccount1:Lr9OBirSgOloG8bd0/k/RMGOuCcnbt7pNNx/q1sei24=");
  auto key = ganglion::dsl::base64_decode(dev_key);
  ASSERT_FALSE(key.illegal_at.has_value());
  std::string to_sign = "GET" + std::string(12, '\n')
                        + "x-ms-date:Sun, 06 Dec 2026 00:00:00 GMT\nx-ms-version:2018-03-28\n"
                          "/devstoreaccount1/devstoreaccount1/orders/messages\n"
                          "numofmessages:10\nvisibilitytimeout:120";
  EXPECT_EQ(header(r, "Authorization"),
            "SharedKey devstoreaccount1:" + openssl_signature(key.bytes, to_sign));
}

TEST(azure_shared_key, delete_message_signs_the_unescaped_pop_receipt) {
  auto r = delete_message_request(azurite_orders(), "7d35e47d-f58e-42da-ba4a-9e6ac7e1214d",
                                  "AgAAAAMAAAAAAAAA+/x==", at_midnight());
  EXPECT_EQ(r.method, "DELETE");
  EXPECT_EQ(r.url, "http://127.0.0.1:10001/devstoreaccount1/orders/messages/"
                   "7d35e47d-f58e-42da-ba4a-9e6ac7e1214d?popreceipt=AgAAAAMAAAAAAAAA%2B%2Fx%3D%3D");
  EXPECT_EQ(header(r, "Content-Type"), ""); // libcurl sends none
  EXPECT_EQ(header(r, "Authorization"),
            "SharedKey devstoreaccount1:NA991QfrRBEOQeUybi3JNlFsl916+L+fPb9cFAMAL8M=");
}

TEST(azure_shared_key, another_key_signs_differently) {
  auto other = azurite_orders();
  other.account.account_key = "other";
  EXPECT_NE(header(get_messages_request(other, 10, 120, at_midnight()), "Authorization"),
            header(get_messages_request(azurite_orders(), 10, 120, at_midnight()),
                   "Authorization"));
}

TEST(azure_shared_key, a_shared_access_signature_goes_in_the_query_unsigned) {
  queue_address at{parse_storage_connection_string(
                     "AccountName=acct;SharedAccessSignature=?sv=2018-03-28&sig=a%2Bb"),
                   "orders"};
  auto r = get_messages_request(at, 10, 120, at_midnight());
  EXPECT_EQ(r.url, "https://acct.queue.core.windows.net/orders/messages"
                   "?sv=2018-03-28&sig=a%2Bb&numofmessages=10&visibilitytimeout=120");
  EXPECT_EQ(header(r, "Authorization"), "<absent>");
  EXPECT_EQ(header(r, "x-ms-date"), "<absent>");
}

TEST(azure_storage_connection_string, endpoints_are_the_sdks) {
  auto a = parse_storage_connection_string("DefaultEndpointsProtocol=https;AccountName=acct;"
                                           "AccountKey=c2VjcmV0;EndpointSuffix=core.chinacloudapi.cn");
  EXPECT_EQ(a.queue_endpoint, "https://acct.queue.core.chinacloudapi.cn");
  EXPECT_EQ(a.account_name, "acct");
  EXPECT_EQ(a.account_key, "secret");
  auto b = parse_storage_connection_string("AccountName=acct;AccountKey=c2VjcmV0;");
  EXPECT_EQ(b.queue_endpoint, "https://acct.queue.core.windows.net");
  auto c = parse_storage_connection_string(
    "QueueEndpoint=http://10.0.0.1:10001/acct/;AccountName=acct;AccountKey=c2VjcmV0");
  EXPECT_EQ(c.queue_endpoint, "http://10.0.0.1:10001/acct");
  auto dev = parse_storage_connection_string("UseDevelopmentStorage=true");
  EXPECT_EQ(dev.queue_endpoint, "http://127.0.0.1:10001/devstoreaccount1");
  EXPECT_EQ(dev.account_name, "devstoreaccount1");
  EXPECT_EQ(dev.account_key, ganglion::dsl::base64_decode(dev_key).bytes);
  auto sas = parse_storage_connection_string(
    "QueueEndpoint=https://acct.queue.core.windows.net/;SharedAccessSignature=sv=1&sig=x");
  EXPECT_EQ(sas.shared_access_signature, "sv=1&sig=x");
  EXPECT_EQ(sas.account_key, "");
}

TEST(azure_storage_connection_string, errors_name_the_key_and_never_the_value) {
  auto error_of = [](const std::string& text) {
    try {
      parse_storage_connection_string(text);
    } catch (const std::invalid_argument& e) {
      return std::string{e.what()};
    }
    return std::string{"parsed"};
  };
  EXPECT_NE(error_of("").find("blank or malformed"), std::string::npos);
  EXPECT_NE(error_of("AccountName=a;;AccountKey=c2VjcmV0").find("blank or malformed"),
            std::string::npos);
  EXPECT_NE(error_of("AccountKey=c2VjcmV0").find("needs either AccountName or QueueEndpoint"),
            std::string::npos);
  // Keys are case-sensitive, as in the SDK.
  EXPECT_NE(error_of("accountname=a;AccountKey=c2VjcmV0").find("AccountName or QueueEndpoint"),
            std::string::npos);
  EXPECT_NE(error_of("AccountName=a").find("needs either AccountKey or SharedAccessSignature"),
            std::string::npos);
  auto bad_key = error_of("AccountName=a;AccountKey=s3cr3t!!");
  EXPECT_NE(bad_key.find("decode account key: illegal base64 data at input byte 6"),
            std::string::npos)
    << bad_key;
  EXPECT_EQ(bad_key.find("s3cr3t"), std::string::npos);
  EXPECT_NE(error_of("QueueEndpoint=ftp://x;AccountName=a;AccountKey=c2VjcmV0").find("http(s)"),
            std::string::npos);
  EXPECT_NE(error_of("AccountName=a/b;AccountKey=c2VjcmV0").find("AccountName has a character"),
            std::string::npos);
}
