#include "client/nkey.hpp"

#include <array>
#include <cctype>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <vector>

#include <openssl/evp.h>

namespace ganglion::nats {

namespace {

constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
constexpr std::uint8_t seed_prefix = 18 << 3; // 'S'
constexpr std::size_t raw_key_size = 32;

std::vector<std::uint8_t> base32_decode(std::string_view text) {
  std::vector<std::uint8_t> out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (char c : text) {
    auto value = alphabet.find(c);
    if (value == std::string_view::npos)
      throw std::runtime_error("the nkey is not base32");
    buffer = (buffer << 5) | static_cast<std::uint32_t>(value);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(buffer >> bits));
    }
  }
  return out;
}

std::string base32_encode(const std::vector<std::uint8_t>& bytes) {
  std::string out;
  std::uint32_t buffer = 0;
  int bits = 0;
  for (auto b : bytes) {
    buffer = (buffer << 8) | b;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      out += alphabet[(buffer >> bits) & 31];
    }
  }
  if (bits > 0)
    out += alphabet[(buffer << (5 - bits)) & 31];
  return out;
}

/// CRC-16/XMODEM, as the nkeys library computes it.
std::uint16_t crc16(const std::uint8_t* data, std::size_t size) {
  std::uint16_t crc = 0;
  for (std::size_t i = 0; i < size; ++i) {
    crc ^= static_cast<std::uint16_t>(data[i]) << 8;
    for (int bit = 0; bit < 8; ++bit)
      crc = (crc & 0x8000) ? static_cast<std::uint16_t>((crc << 1) ^ 0x1021)
                           : static_cast<std::uint16_t>(crc << 1);
  }
  return crc;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
    s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
    s.remove_suffix(1);
  return s;
}

} // namespace

std::string find_nkey_seed(std::string_view text) {
  std::string_view rest = text;
  while (!rest.empty()) {
    auto end = rest.find('\n');
    auto line = trim(rest.substr(0, end));
    rest = end == std::string_view::npos ? std::string_view{} : rest.substr(end + 1);
    if (line.size() >= 56 && line[0] == 'S' && line.find_first_not_of(alphabet) == line.npos)
      return std::string(line);
  }
  throw std::runtime_error("no nkey seed (a line starting with 'S') found");
}

std::string nkey_public_key(std::string_view seed) {
  auto raw = base32_decode(seed);
  if (raw.size() != 2 + raw_key_size + 2)
    throw std::runtime_error("the nkey seed has the wrong length");
  auto expected = static_cast<std::uint16_t>(raw[34] | (raw[35] << 8));
  if (crc16(raw.data(), 34) != expected)
    throw std::runtime_error("the nkey seed's checksum does not match");
  if ((raw[0] & 0xF8) != seed_prefix)
    throw std::runtime_error("the nkey is not a seed");
  auto type = static_cast<std::uint8_t>(((raw[0] & 7) << 5) | ((raw[1] & 0xF8) >> 3));

  std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key{
    EVP_PKEY_new_raw_private_key(EVP_PKEY_ED25519, nullptr, raw.data() + 2, raw_key_size),
    &EVP_PKEY_free};
  if (!key)
    throw std::runtime_error("the nkey seed is not an Ed25519 key");
  std::array<std::uint8_t, raw_key_size> pub{};
  std::size_t size = pub.size();
  if (EVP_PKEY_get_raw_public_key(key.get(), pub.data(), &size) != 1 || size != pub.size())
    throw std::runtime_error("cannot derive the nkey public key");

  std::vector<std::uint8_t> out;
  out.push_back(type);
  out.insert(out.end(), pub.begin(), pub.end());
  auto crc = crc16(out.data(), out.size());
  out.push_back(static_cast<std::uint8_t>(crc & 0xFF));
  out.push_back(static_cast<std::uint8_t>(crc >> 8));
  return base32_encode(out);
}

} // namespace ganglion::nats
