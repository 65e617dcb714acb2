#include "client/signature.hpp"

#include <charconv>

#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/go/codec.hpp"

namespace ganglion::slack::detail {

std::optional<std::string> signature_problem(std::string_view signature, std::string_view timestamp,
                                             std::string_view body, std::string_view secret,
                                             std::chrono::system_clock::time_point now) {
  if (signature.empty() || timestamp.empty())
    return "missing headers";
  std::int64_t seconds = 0;
  auto [end, ec] = std::from_chars(timestamp.data(), timestamp.data() + timestamp.size(), seconds);
  if (ec != std::errc{} || end != timestamp.data() + timestamp.size())
    return "invalid timestamp";
  auto now_seconds =
    std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
  if (seconds < now_seconds - signature_window.count()
      || seconds > now_seconds + signature_window.count())
    return "timestamp is too old";
  std::string message = "v0:";
  message += timestamp;
  message += ':';
  message += body;
  // slack-go trims `v0=` and decodes the hex, so a bare hex passes and its case does not matter.
  auto hex = signature.substr(signature.starts_with("v0=") ? 3 : 0);
  std::string given{hex};
  for (auto& c : given)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (!core::constant_time_equal(given, dsl::hmac_sha256_hex(secret, message)))
    return "signature validation failed";
  return std::nullopt;
}

} // namespace ganglion::slack::detail
