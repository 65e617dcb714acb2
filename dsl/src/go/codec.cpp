// base64 and SHA-256 through OpenSSL's libcrypto; only the error position of a bad base64 input
// is computed here, since EVP_DecodeBlock reports failure without saying where.

#include "ganglion/dsl/go/codec.hpp"

#include <array>
#include <stdexcept>

#include <openssl/evp.h>
#include <openssl/hmac.h>

namespace ganglion::dsl {

namespace {

constexpr std::string_view alphabet =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// EVP_*Block take an int length: feed them whole quanta in chunks well below INT_MAX.
constexpr std::size_t chunk_quanta = std::size_t{1} << 20;

bool is_newline(char c) {
  return c == '\n' || c == '\r';
}

// Go's decodeQuantum walk over `src`: on success `clean` holds the input without line breaks
// (whole 4-character quanta, padding included); otherwise the offset Go reports.
std::optional<std::size_t> scan(std::string_view src, std::string& clean) {
  std::size_t si = 0;
  auto skip_newlines = [&] {
    while (si < src.size() && is_newline(src[si]))
      ++si;
  };
  for (;;) {
    for (std::size_t j = 0; j < 4;) {
      if (si == src.size())
        return j == 0 ? std::nullopt : std::optional<std::size_t>(si - j);
      char in = src[si++];
      if (is_newline(in))
        continue;
      if (in == '=') {
        if (j < 2)
          return si - 1;
        if (j == 2) {
          skip_newlines();
          if (si == src.size())
            return src.size();
          if (src[si] != '=')
            return si - 1;
          ++si;
        }
        skip_newlines();
        if (si < src.size())
          return si;
        clean.append(4 - j, '=');
        return std::nullopt;
      }
      if (alphabet.find(in) == std::string_view::npos)
        return si - 1;
      clean.push_back(in);
      ++j;
    }
  }
}

const unsigned char* bytes_of(std::string_view s) {
  return reinterpret_cast<const unsigned char*>(s.data());
}

unsigned char* bytes_of(std::string& s) {
  return reinterpret_cast<unsigned char*>(s.data());
}

} // namespace

std::string base64_encode(std::string_view bytes) {
  // One byte more than the text: EVP_EncodeBlock NUL-terminates what it writes.
  std::string out((bytes.size() + 2) / 3 * 4 + 1, '\0');
  std::size_t written = 0;
  for (std::size_t at = 0; at < bytes.size(); at += 3 * chunk_quanta) {
    auto chunk = bytes.substr(at, 3 * chunk_quanta);
    written += static_cast<std::size_t>(EVP_EncodeBlock(bytes_of(out) + written, bytes_of(chunk),
                                                        static_cast<int>(chunk.size())));
  }
  out.resize(written);
  return out;
}

base64_decoded base64_decode(std::string_view text) {
  base64_decoded result;
  std::string clean;
  clean.reserve(text.size());
  if (auto at = scan(text, clean)) {
    result.illegal_at = at;
    return result;
  }
  std::size_t padding = clean.size() - (clean.find_last_not_of('=') + 1);
  std::string& out = result.bytes;
  out.resize(clean.size() / 4 * 3);
  std::size_t written = 0;
  std::string_view all = clean;
  for (std::size_t at = 0; at < all.size(); at += 4 * chunk_quanta) {
    auto chunk = all.substr(at, 4 * chunk_quanta);
    int n = EVP_DecodeBlock(bytes_of(out) + written, bytes_of(chunk), static_cast<int>(chunk.size()));
    if (n < 0)
      throw std::logic_error("EVP_DecodeBlock rejected input that passed the base64 scan");
    written += static_cast<std::size_t>(n);
  }
  out.resize(written - padding);
  return result;
}

namespace {

std::string lower_hex(const unsigned char* digest, unsigned int size) {
  static constexpr std::string_view hex = "0123456789abcdef";
  std::string out;
  out.reserve(2 * size);
  for (unsigned int i = 0; i < size; ++i) {
    out.push_back(hex[digest[i] >> 4]);
    out.push_back(hex[digest[i] & 15]);
  }
  return out;
}

} // namespace

std::string sha256_hex(std::string_view bytes) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (EVP_Digest(bytes.data(), bytes.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256 digest failed");
  return lower_hex(digest.data(), size);
}

std::optional<std::string> hmac(std::string_view algorithm, std::string_view key,
                                std::string_view bytes) {
  const EVP_MD* md = algorithm == "sha1"     ? EVP_sha1()
                     : algorithm == "sha256" ? EVP_sha256()
                     : algorithm == "sha512" ? EVP_sha512()
                                             : nullptr;
  if (md == nullptr)
    return std::nullopt;
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (HMAC(md, key.data(), static_cast<int>(key.size()), bytes_of(bytes), bytes.size(),
           digest.data(), &size)
      == nullptr)
    throw std::runtime_error("HMAC failed");
  return std::string(reinterpret_cast<const char*>(digest.data()), size);
}

std::string hmac_sha256_hex(std::string_view key, std::string_view bytes) {
  auto mac = *hmac("sha256", key, bytes);
  return lower_hex(reinterpret_cast<const unsigned char*>(mac.data()), mac.size());
}

} // namespace ganglion::dsl
