#include "text.hpp"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <mutex>
#include <random>

#include <openssl/evp.h>

namespace ganglion::test::kube {

namespace {

std::mt19937_64& generator() {
  static std::mt19937_64 engine{std::random_device{}()};
  return engine;
}

std::mutex& generator_mutex() {
  static std::mutex mutex;
  return mutex;
}

} // namespace

std::string base64_encode(const std::string& data) {
  std::string out(4 * ((data.size() + 2) / 3), '\0');
  int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(data.data()),
                                static_cast<int>(data.size()));
  out.resize(static_cast<std::size_t>(written));
  return out;
}

std::string base64_decode(const std::string& text, bool& ok) {
  ok = false;
  if (text.empty() || text.size() % 4 != 0)
    return {};
  std::string out(text.size() / 4 * 3, '\0');
  int written = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                reinterpret_cast<const unsigned char*>(text.data()),
                                static_cast<int>(text.size()));
  if (written < 0)
    return {};
  std::size_t padding = text.size() - text.find_last_not_of('=') - 1;
  out.resize(static_cast<std::size_t>(written) - padding);
  ok = true;
  return out;
}

std::string rfc3339_now() {
  std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &utc);
  return text;
}

std::string random_suffix(std::size_t count) {
  static constexpr std::string_view alphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::lock_guard guard{generator_mutex()};
  std::uniform_int_distribution<std::size_t> pick{0, alphabet.size() - 1};
  std::string suffix;
  for (std::size_t i = 0; i < count; ++i)
    suffix += alphabet[pick(generator())];
  return suffix;
}

std::string random_uid() {
  std::uint64_t high, low;
  {
    std::lock_guard guard{generator_mutex()};
    high = generator()();
    low = generator()();
  }
  high = (high & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;
  low = (low & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;
  char text[40];
  std::snprintf(text, sizeof text, "%08x-%04x-%04x-%04x-%012llx",
                static_cast<unsigned>(high >> 32), static_cast<unsigned>((high >> 16) & 0xffff),
                static_cast<unsigned>(high & 0xffff), static_cast<unsigned>(low >> 48),
                static_cast<unsigned long long>(low & 0xffffffffffffULL));
  return text;
}

} // namespace ganglion::test::kube
