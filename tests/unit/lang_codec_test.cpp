// base64 (Go's StdEncoding, as sprig's b64enc/b64dec and the whole-event `data` field use it)
// and SHA-256 (sprig's sha256sum), checked against RFC 4648 / FIPS 180-2 vectors and Go's errors.

#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "ganglion/dsl/go/codec.hpp"

namespace {

using ganglion::dsl::base64_decode;
using ganglion::dsl::base64_encode;
using ganglion::dsl::hmac;
using ganglion::dsl::hmac_sha256_hex;
using ganglion::dsl::sha256_hex;

struct vector_t {
  const char* plain;
  const char* encoded;
};

// RFC 4648 section 10: every padding length.
constexpr vector_t rfc4648[] = {
  {"", ""},           {"f", "Zg=="},         {"fo", "Zm8="},         {"foo", "Zm9v"},
  {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="}, {"foobar", "Zm9vYmFy"},
};

std::string all_bytes() {
  std::string out;
  for (int i = 0; i < 256; ++i)
    out.push_back(static_cast<char>(i));
  return out;
}

TEST(codec_test, base64_encodes_rfc4648_vectors_with_padding) {
  for (const auto& v : rfc4648)
    EXPECT_EQ(base64_encode(v.plain), v.encoded) << v.plain;
}

TEST(codec_test, base64_decodes_rfc4648_vectors_and_strips_padding) {
  for (const auto& v : rfc4648) {
    auto decoded = base64_decode(v.encoded);
    EXPECT_FALSE(decoded.illegal_at) << v.encoded;
    EXPECT_EQ(decoded.bytes, v.plain) << v.encoded;
  }
}

TEST(codec_test, base64_round_trips_binary_bytes) {
  auto bytes = all_bytes();
  for (std::size_t n = 0; n <= bytes.size(); n += 37) {
    auto prefix = bytes.substr(0, n);
    auto encoded = base64_encode(prefix);
    EXPECT_EQ(encoded.size(), (n + 2) / 3 * 4);
    auto decoded = base64_decode(encoded);
    EXPECT_FALSE(decoded.illegal_at);
    EXPECT_EQ(decoded.bytes, prefix) << n;
  }
  EXPECT_EQ(base64_encode(std::string("\0\xff\xfe", 3)), "AP/+");
}

TEST(codec_test, base64_round_trips_inputs_longer_than_one_openssl_call) {
  std::string big;
  for (std::size_t i = 0; big.size() < (std::size_t{3} << 20) + 4; ++i)
    big += all_bytes();
  big.resize((std::size_t{3} << 20) + 4);
  auto encoded = base64_encode(big);
  ASSERT_EQ(encoded.size(), (big.size() + 2) / 3 * 4);
  EXPECT_EQ(encoded.substr(encoded.size() - 2), "==");
  auto decoded = base64_decode(encoded);
  EXPECT_FALSE(decoded.illegal_at);
  EXPECT_TRUE(decoded.bytes == big);
}

TEST(codec_test, base64_decode_ignores_line_breaks_like_go) {
  EXPECT_EQ(base64_decode("Zm9v\nYmFy").bytes, "foobar");
  EXPECT_EQ(base64_decode("\r\nZm9v\r\nYg==\r\n").bytes, "foob");
  EXPECT_EQ(base64_decode("Zm9vYg=\n=").bytes, "foob");
  EXPECT_EQ(base64_decode("\n\n").bytes, "");
  EXPECT_FALSE(base64_decode("Zm9v\nYmFy").illegal_at);
}

TEST(codec_test, base64_decode_accepts_nonzero_trailing_bits_like_go) {
  auto decoded = base64_decode("Zh==");
  EXPECT_FALSE(decoded.illegal_at);
  EXPECT_EQ(decoded.bytes, "f");
}

struct invalid_t {
  const char* text;
  std::size_t at;
};

TEST(codec_test, base64_decode_reports_the_byte_go_reports) {
  const invalid_t cases[] = {
    {"abc$", 3},      // not in the alphabet
    {"Zm9v\xff", 4},  // non-ASCII byte
    {"Zm9v-_", 4},    // URL alphabet is not StdEncoding
    {"Zm9", 0},       // unpadded: Go points at the start of the short quantum
    {"Zm9vY", 4},     // a lone sextet
    {"=Zm9", 0},      // padding in the first position
    {"Z===", 1},      // padding in the second position
    {"Zg=", 3},       // half the padding
    {"Zg=x", 2},      // `=` followed by data
    {"Zg==Zg==", 4},  // data after the padding
    {"Zm9=x", 4},     // data after the single `=`
    {"Zm9v Zm9v", 4}, // spaces are not line breaks
  };
  for (const auto& c : cases) {
    auto decoded = base64_decode(c.text);
    ASSERT_TRUE(decoded.illegal_at) << c.text;
    EXPECT_EQ(*decoded.illegal_at, c.at) << c.text;
    EXPECT_TRUE(decoded.bytes.empty()) << c.text;
  }
}

TEST(codec_test, sha256_hex_matches_fips_vectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1, '\0')),
            "6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d");
}

// RFC 4231 test cases 1 and 2.
TEST(codec_test, hmac_sha256_hex_matches_rfc4231_vectors) {
  EXPECT_EQ(hmac_sha256_hex(std::string(20, '\x0b'), "Hi There"),
            "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7");
  EXPECT_EQ(hmac_sha256_hex("Jefe", "what do ya want for nothing?"),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
}

// RFC 2202 test case 2 (SHA-1) and RFC 4231 test case 2 (SHA-256, SHA-512); other hashes none.
TEST(codec_test, hmac_of_each_algorithm_matches_the_rfc_vectors) {
  auto hex = [](const std::optional<std::string>& mac) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string out;
    for (unsigned char c : mac.value_or(""))
      out += std::string{digits[c >> 4], digits[c & 15]};
    return out;
  };
  const std::string data = "what do ya want for nothing?";
  EXPECT_EQ(hex(hmac("sha1", "Jefe", data)), "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79");
  EXPECT_EQ(hex(hmac("sha256", "Jefe", data)),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  EXPECT_EQ(hex(hmac("sha512", "Jefe", data)),
            "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d0"
            "34f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737");
  EXPECT_FALSE(hmac("md5", "Jefe", data));
}

} // namespace
