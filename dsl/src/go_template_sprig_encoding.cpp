// sprig's encodings: base64 (Go's StdEncoding), SHA-256 and JSON.

#include <array>
#include <cstdint>
#include <stdexcept>

#include <fmt/format.h>

#include "go_template_ast.hpp"

namespace ganglion::dsl::tmpl {

namespace {

using args_t = std::vector<value>;

constexpr std::string_view alphabet =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

value fn_b64enc(const call_context&, args_t& a) {
  std::string s = arg_string(a[0], "b64enc");
  std::string out;
  for (std::size_t i = 0; i < s.size(); i += 3) {
    std::uint32_t n = static_cast<unsigned char>(s[i]) << 16;
    if (i + 1 < s.size())
      n |= static_cast<unsigned char>(s[i + 1]) << 8;
    if (i + 2 < s.size())
      n |= static_cast<unsigned char>(s[i + 2]);
    out += alphabet[(n >> 18) & 63];
    out += alphabet[(n >> 12) & 63];
    out += i + 1 < s.size() ? alphabet[(n >> 6) & 63] : '=';
    out += i + 2 < s.size() ? alphabet[n & 63] : '=';
  }
  return out;
}

// base64.StdEncoding.DecodeString; nullopt-like failure reported as Go's error text.
std::string b64decode(std::string_view src, std::string& error) {
  std::string out;
  std::size_t si = 0;
  auto skip_newlines = [&] {
    while (si < src.size() && (src[si] == '\n' || src[si] == '\r'))
      ++si;
  };
  auto corrupt = [&](std::size_t at) {
    error = fmt::format("illegal base64 data at input byte {}", at);
    return std::string();
  };
  for (;;) {
    std::uint32_t quantum = 0;
    int j = 0;
    for (; j < 4; ++j) {
      if (si == src.size()) {
        if (j == 0)
          return out;
        return corrupt(si - static_cast<std::size_t>(j));
      }
      char in = src[si++];
      if (in == '\n' || in == '\r') {
        --j;
        continue;
      }
      if (in == '=') {
        if (j < 2)
          return corrupt(si - 1);
        if (j == 2) {
          skip_newlines();
          if (si == src.size())
            return corrupt(src.size());
          if (src[si] != '=')
            return corrupt(si - 1);
          ++si;
        }
        skip_newlines();
        if (si < src.size())
          return corrupt(si);
        break;
      }
      auto pos = alphabet.find(in);
      if (pos == std::string_view::npos)
        return corrupt(si - 1);
      quantum |= static_cast<std::uint32_t>(pos) << (18 - 6 * j);
    }
    out += static_cast<char>((quantum >> 16) & 0xFF);
    if (j > 2)
      out += static_cast<char>((quantum >> 8) & 0xFF);
    if (j > 3)
      out += static_cast<char>(quantum & 0xFF);
    if (j < 4)
      return out;
  }
}

value fn_b64dec(const call_context&, args_t& a) {
  std::string error;
  std::string out = b64decode(arg_string(a[0], "b64dec"), error);
  return error.empty() ? out : error;
}

std::string sha256_hex(std::string_view msg) {
  static constexpr std::array<std::uint32_t, 64> k = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
    0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
    0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
    0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
    0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
    0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
    0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
    0xc67178f2};
  std::array<std::uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::string data(msg);
  std::uint64_t bits = static_cast<std::uint64_t>(msg.size()) * 8;
  data += static_cast<char>(0x80);
  while (data.size() % 64 != 56)
    data += '\0';
  for (int i = 7; i >= 0; --i)
    data += static_cast<char>((bits >> (8 * i)) & 0xFF);
  auto rotr = [](std::uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
  for (std::size_t chunk = 0; chunk < data.size(); chunk += 64) {
    std::array<std::uint32_t, 64> w{};
    for (std::size_t i = 0; i < 16; ++i)
      for (std::size_t b = 0; b < 4; ++b)
        w[i] = (w[i] << 8) | static_cast<unsigned char>(data[chunk + 4 * i + b]);
    for (std::size_t i = 16; i < 64; ++i) {
      auto s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3);
      auto s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    auto v = h;
    for (std::size_t i = 0; i < 64; ++i) {
      auto s1 = rotr(v[4], 6) ^ rotr(v[4], 11) ^ rotr(v[4], 25);
      auto ch = (v[4] & v[5]) ^ (~v[4] & v[6]);
      auto t1 = v[7] + s1 + ch + k[i] + w[i];
      auto s0 = rotr(v[0], 2) ^ rotr(v[0], 13) ^ rotr(v[0], 22);
      auto maj = (v[0] & v[1]) ^ (v[0] & v[2]) ^ (v[1] & v[2]);
      auto t2 = s0 + maj;
      v = {t1 + t2, v[0], v[1], v[2], v[3] + t1, v[4], v[5], v[6]};
    }
    for (std::size_t i = 0; i < 8; ++i)
      h[i] += v[i];
  }
  std::string out;
  for (auto x : h)
    out += fmt::format("{:08x}", x);
  return out;
}

value fn_sha256sum(const call_context&, args_t& a) {
  return sha256_hex(arg_string(a[0], "sha256sum"));
}

template <bool EscapeHtml>
value fn_to_json(const call_context&, args_t& a) {
  try {
    return to_go_json(a[0], EscapeHtml);
  } catch (const std::runtime_error&) {
    return "";
  }
}

value fn_from_json(const call_context&, args_t& a) {
  value parsed = value::parse(arg_string(a[0], "fromJson"), nullptr, false);
  if (parsed.is_discarded())
    return nullptr;
  return numbers_to_float(std::move(parsed));
}

} // namespace

void add_encoding_functions(std::vector<function>& out) {
  out.insert(out.end(), {
                          {"b64enc", fn_b64enc, 1, 1},
                          {"b64dec", fn_b64dec, 1, 1},
                          {"sha256sum", fn_sha256sum, 1, 1},
                          {"toJson", fn_to_json<true>, 1, 1},
                          {"toRawJson", fn_to_json<false>, 1, 1},
                          {"fromJson", fn_from_json, 1, 1},
                        });
}

} // namespace ganglion::dsl::tmpl
