#include "source/signature.hpp"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <vector>

#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/go/codec.hpp"

namespace ganglion::stripe::detail {

namespace {

constexpr std::string_view not_signed = "webhook has no Stripe-Signature header";
constexpr std::string_view invalid_header = "webhook has invalid Stripe-Signature header";
constexpr std::string_view no_valid_signature = "webhook had no valid signature";
constexpr std::string_view too_old = "timestamp wasn't within tolerance";

/// time.Time{}.Unix(): the zero time, year 1.
constexpr std::int64_t go_zero_time = -62135596800;

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> out;
  std::size_t from = 0;
  while (true) {
    auto at = text.find(separator, from);
    out.push_back(text.substr(from, at == std::string_view::npos ? text.npos : at - from));
    if (at == std::string_view::npos)
      return out;
    from = at + 1;
  }
}

/// strconv.ParseInt(text, 10, 64).
std::optional<std::int64_t> parse_int(std::string_view text) {
  if (!text.empty() && text.front() == '+')
    text.remove_prefix(1);
  std::int64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc{} || end != text.data() + text.size())
    return std::nullopt;
  return value;
}

/// hex.DecodeString's check, the digits lower-cased: nullopt when not hex.
std::optional<std::string> lower_hex(std::string_view text) {
  if (text.size() % 2 != 0)
    return std::nullopt;
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (!std::isxdigit(static_cast<unsigned char>(c)))
      return std::nullopt;
    out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

} // namespace

std::optional<std::string> signature_problem(std::string_view header, std::string_view body,
                                             std::string_view secret,
                                             std::chrono::seconds tolerance,
                                             std::chrono::system_clock::time_point now) {
  if (header.empty())
    return std::string{not_signed};
  std::int64_t timestamp = go_zero_time;
  std::vector<std::string> signatures;
  for (auto pair : split(header, ',')) {
    auto parts = split(pair, '=');
    if (parts.size() != 2)
      return std::string{invalid_header};
    if (parts[0] == "t") {
      auto t = parse_int(parts[1]);
      if (!t)
        return std::string{invalid_header};
      timestamp = *t;
    } else if (parts[0] == "v1") {
      if (auto hex = lower_hex(parts[1]))
        signatures.push_back(std::move(*hex));
    }
  }
  if (signatures.empty())
    return std::string{no_valid_signature};
  // time.Since(t) > tolerance, to the millisecond, without overflow for far times.
  auto now_ms =
    std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
  auto now_s = now_ms / 1000;
  bool expired = timestamp < now_s - tolerance.count() - 1
                 || (timestamp <= now_s && now_ms - timestamp * 1000 > tolerance.count() * 1000);
  if (expired)
    return std::string{too_old};
  std::string signed_payload = std::to_string(timestamp);
  signed_payload += '.';
  signed_payload += body;
  auto expected = dsl::hmac_sha256_hex(secret, signed_payload);
  bool valid = false;
  for (const auto& signature : signatures)
    valid |= core::constant_time_equal(signature, expected);
  if (!valid)
    return std::string{no_valid_signature};
  return std::nullopt;
}

} // namespace ganglion::stripe::detail
