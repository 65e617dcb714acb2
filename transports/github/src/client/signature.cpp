#include "client/signature.hpp"

#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/go/codec.hpp"

namespace ganglion::github::detail {

namespace {

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
  auto mac = dsl::hmac(algorithm, secret, body);
  if (!mac)
    return {};
  static constexpr char digits[] = "0123456789abcdef";
  std::string out{algorithm};
  out += '=';
  for (unsigned char c : *mac) {
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
  auto expected = dsl::hmac(algorithm, secret, body);
  if (!expected)
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
  if (!core::constant_time_equal(given, *expected))
    return "payload signature check failed";
  return {};
}

} // namespace ganglion::github::detail
