#pragma once

// Not installed: byte encodings shared by the template functions and the parameter resolver.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace ganglion::dsl {

/// The outcome of base64_decode: the decoded bytes, or where the input stopped being base64.
struct base64_decoded {
  /// The decoded bytes; empty when `illegal_at` is set.
  std::string bytes;
  /// Offset of the first illegal input byte, as Go's `base64.CorruptInputError` reports it.
  std::optional<std::size_t> illegal_at;
};

/// Go's `base64.StdEncoding.EncodeToString`: standard alphabet, `=` padding, no line breaks.
std::string base64_encode(std::string_view bytes);

/// Go's `base64.StdEncoding.DecodeString`: padding required, `\r` and `\n` ignored anywhere.
base64_decoded base64_decode(std::string_view text);

/// The SHA-256 digest of `bytes` as 64 lowercase hex digits.
std::string sha256_hex(std::string_view bytes);

/// The raw HMAC of `bytes` under `key` with hash `algorithm` (`sha1`, `sha256` or `sha512`);
/// nullopt for another algorithm.
std::optional<std::string> hmac(std::string_view algorithm, std::string_view key,
                                std::string_view bytes);

/// The HMAC-SHA256 of `bytes` under `key` as 64 lowercase hex digits (Go's
/// `hex.EncodeToString(hmac.New(sha256.New, key).Sum(bytes))`: webhook signatures).
std::string hmac_sha256_hex(std::string_view key, std::string_view bytes);

} // namespace ganglion::dsl
