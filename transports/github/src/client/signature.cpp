#include "client/signature.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "ganglion/core/secrets.hpp"

namespace ganglion::github::detail {

namespace {

const EVP_MD* digest_of(std::string_view algorithm) {
  if (algorithm == "sha1")
    return EVP_sha1();
  if (algorithm == "sha256")
    return EVP_sha256();
  if (algorithm == "sha512")
    return EVP_sha512();
  return nullptr;
}

std::string mac(const EVP_MD* md, std::string_view secret, std::string_view body) {
  unsigned char out[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(md, secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(body.data()), body.size(), out, &size);
  return std::string(reinterpret_cast<const char*>(out), size);
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

/// Go's %q of `text` for the ASCII it holds; other bytes are kept.
std::string quoted(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\')
      out += '\\';
    out += c;
  }
  return out + '"';
}

} // namespace

std::string sign(std::string_view algorithm, std::string_view secret, std::string_view body) {
  const auto* md = digest_of(algorithm);
  if (md == nullptr)
    return {};
  static constexpr char digits[] = "0123456789abcdef";
  std::string out{algorithm};
  out += '=';
  for (unsigned char c : mac(md, secret, body)) {
    out += digits[c >> 4];
    out += digits[c & 15];
  }
  return out;
}

std::string signature_problem(std::string_view signature, std::string_view body,
                              std::string_view secret) {
  if (signature.empty())
    return "missing signature";
  auto eq = signature.find('=');
  if (eq == std::string_view::npos)
    return "error parsing signature " + quoted(signature);
  auto algorithm = signature.substr(0, eq);
  const auto* md = digest_of(algorithm);
  if (md == nullptr)
    return "unknown hash type prefix: " + quoted(algorithm);
  auto hex = signature.substr(eq + 1);
  std::string given;
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    int hi = hex_digit(hex[i]);
    int lo = i + 1 < hex.size() ? hex_digit(hex[i + 1]) : 0;
    if (hi < 0 || lo < 0)
      return "error decoding signature " + quoted(signature) + ": encoding/hex: invalid byte";
    if (i + 1 >= hex.size())
      return "error decoding signature " + quoted(signature)
             + ": encoding/hex: odd length hex "
               "string";
    given += static_cast<char>(hi * 16 + lo);
  }
  if (!core::constant_time_equal(given, mac(md, secret, body)))
    return "payload signature check failed";
  return {};
}

} // namespace ganglion::github::detail
