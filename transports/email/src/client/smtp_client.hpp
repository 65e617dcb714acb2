#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

namespace ganglion::email::detail {

/// Where and how to send: one SMTP server and its credentials.
struct smtp_settings {
  std::string host;
  std::int64_t port = 0;
  /// AUTH with these when `username` is not empty.
  std::string username;
  std::string password;
  /// PEM file of the CAs that verify the server; empty: the system's.
  std::string ca_file;
  std::chrono::milliseconds timeout{60000};
};

/// Sends `message` from `sender` to `recipient` (the SMTP envelope) with libcurl: implicit TLS
/// on port 465, otherwise STARTTLS when the server offers it, as gomail does, and required when
/// credentials would cross the network in the clear (Go's PLAIN auth refuses that for a host
/// other than localhost). The EHLO name is `localhost`, gomail's. Returns the error, empty on
/// success (`Login denied` for a refused password, with the server's last reply code).
std::string send_mail(const smtp_settings& settings, const std::string& sender,
                      const std::string& recipient, const std::string& message);

} // namespace ganglion::email::detail
