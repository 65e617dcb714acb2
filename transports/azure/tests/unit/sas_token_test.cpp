// The SAS token and the connection string of the Azure triggers. The expected token was
// computed outside ganglion (Python's hmac, base64 and urllib.parse.quote_plus, which escape as
// Go's url.QueryEscape does).

#include <stdexcept>

#include <gtest/gtest.h>

#include "client/connection_string.hpp"
#include "client/sas_token.hpp"

using namespace ganglion::azure::detail;

TEST(azure_sas, query_escape_is_gos) {
  EXPECT_EQ(query_escape("a b/c~d_e.f-g+h=&\xc3\xa9"), "a+b%2Fc~d_e.f-g%2Bh%3D%26%C3%A9");
}

TEST(azure_sas, token_is_azures_shared_access_signature) {
  EXPECT_EQ(sas_token("https://my-ns.servicebus.windows.net/My Hub", "RootManageSharedAccessKey",
                      "c2VjcmV0PQ==", 1700000000),
            "SharedAccessSignature sr=https%3a%2f%2fmy-ns.servicebus.windows.net%2fmy+hub"
            "&sig=1avCL0p6cA%2F5D0chibh94g4om1X%2B7kLAecX8s4Xkw4o%3D&se=1700000000"
            "&skn=RootManageSharedAccessKey");
}

TEST(azure_sas, another_key_signs_differently) {
  auto a = sas_token("https://n/h", "k", "one", 1);
  auto b = sas_token("https://n/h", "k", "two", 1);
  EXPECT_NE(a, b);
}

TEST(azure_connection_string, keys_are_read_case_insensitively) {
  auto cs =
    parse_connection_string("Endpoint=sb://my-ns.servicebus.windows.net/;sharedaccesskeyname=Root;"
                            "SharedAccessKey=abc==;EntityPath=q;");
  EXPECT_EQ(cs.host, "my-ns.servicebus.windows.net");
  EXPECT_EQ(cs.shared_access_key_name, "Root");
  EXPECT_EQ(cs.shared_access_key, "abc==");
  EXPECT_EQ(cs.entity_path, "q");
  EXPECT_EQ(cs.shared_access_signature, "");
}

TEST(azure_connection_string, a_signature_replaces_the_key) {
  auto cs = parse_connection_string(
    "Endpoint=sb://n.servicebus.windows.net:5671;SharedAccessSignature=SharedAccessSignature "
    "sr=x&sig=y&se=1&skn=k");
  EXPECT_EQ(cs.host, "n.servicebus.windows.net:5671");
  EXPECT_EQ(cs.shared_access_signature, "SharedAccessSignature sr=x&sig=y&se=1&skn=k");
}

TEST(azure_connection_string, what_is_missing_is_named_and_no_value_shown) {
  auto message = [](const char* text) {
    try {
      parse_connection_string(text);
    } catch (const std::invalid_argument& e) {
      return std::string{e.what()};
    }
    return std::string{"parsed"};
  };
  EXPECT_EQ(message("SharedAccessKeyName=n;SharedAccessKey=TOPSECRET"),
            "connection string: key \"Endpoint\" must not be empty");
  EXPECT_EQ(message("Endpoint=sb://h/;SharedAccessKey=TOPSECRET"),
            "connection string: key \"SharedAccessKeyName\" must not be empty");
  EXPECT_EQ(message("Endpoint=sb://h/;SharedAccessKeyName=n"),
            "connection string: key \"SharedAccessKey\" must not be empty");
  EXPECT_EQ(message("Endpoint=h;SharedAccessKeyName=n;SharedAccessKey=TOPSECRET"),
            "connection string: Endpoint is not a URL (sb://<namespace>/)");
  EXPECT_EQ(message("Endpoint=sb://h/x?;SharedAccessKeyName=n;SharedAccessKey=TOPSECRET"),
            "parsed");
  EXPECT_EQ(message("Endpoint=sb://h@evil/;SharedAccessKeyName=n;SharedAccessKey=TOPSECRET"),
            "connection string: Endpoint's host has a character that is not a letter, digit, "
            "'.', '-', '_' or ':'");
  EXPECT_EQ(message("TOPSECRET"), "connection string: a part has no '=' (Key=Value;…)");
}
