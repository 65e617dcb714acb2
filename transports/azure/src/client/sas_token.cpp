#include "client/sas_token.hpp"

#include <cctype>

#include <fmt/format.h>

#include "ganglion/dsl/go/codec.hpp"

namespace ganglion::azure::detail {

std::string query_escape(std::string_view text) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(text.size());
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~') {
      out.push_back(static_cast<char>(c));
    } else if (c == ' ') {
      out.push_back('+');
    } else {
      out.push_back('%');
      out.push_back(hex[c >> 4]);
      out.push_back(hex[c & 0x0f]);
    }
  }
  return out;
}

std::string sas_token(std::string_view resource_uri, std::string_view key_name,
                      std::string_view key, std::int64_t expiry_unix_seconds) {
  auto audience = query_escape(resource_uri);
  for (auto& c : audience)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  auto expiry = std::to_string(expiry_unix_seconds);
  auto signature = dsl::base64_encode(*dsl::hmac("sha256", key, audience + "\n" + expiry));
  return fmt::format("SharedAccessSignature sr={}&sig={}&se={}&skn={}", audience,
                     query_escape(signature), expiry, key_name);
}

} // namespace ganglion::azure::detail
