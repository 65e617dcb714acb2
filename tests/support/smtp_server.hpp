#pragma once

// A real SMTP server for the email trigger's tests: Debian's python3-aiosmtpd on a free
// 127.0.0.1 port, offering STARTTLS with a self-signed certificate for 127.0.0.1 and AUTH
// (PLAIN, LOGIN) for one user, recording every message it accepts.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "child_process.hpp"

namespace ganglion::test {

/// How to start an smtp_server.
struct smtp_server_options {
  std::string user = "mailer";
  std::string password = "s3cret";
  /// Refuse MAIL before STARTTLS (aiosmtpd's require_starttls); AUTH always needs TLS.
  bool require_starttls = true;
};

/// One message the server accepted.
struct smtp_message {
  std::string mail_from;
  std::vector<std::string> rcpt_tos;
  /// The DATA as received (dot-unstuffed), CRLF line ends.
  std::string data;
  /// Whether the session had switched to TLS (STARTTLS) when DATA came.
  bool tls = false;
  /// The user the session logged in as; empty without AUTH.
  std::string login;
};

/// The server: a python3 process running aiosmtpd's Controller; killed when destroyed.
class smtp_server {
public:
  /// Starts the server and waits until it accepts connections. Throws std::runtime_error.
  explicit smtp_server(smtp_server_options options = {});
  ~smtp_server();
  smtp_server(const smtp_server&) = delete;
  smtp_server& operator=(const smtp_server&) = delete;

  std::uint16_t port() const noexcept { return port_; }
  /// The PEM file of the server's certificate (its own CA).
  std::string ca_file() const;
  /// The messages accepted so far, in arrival order.
  std::vector<smtp_message> messages() const;
  /// Waits until at least `count` messages arrived; false on timeout.
  bool wait_for(std::size_t count, std::chrono::milliseconds timeout) const;
  /// What the server logged.
  std::string output() const;

private:
  std::uint16_t port_;
  std::string dir_;
  std::unique_ptr<child_process> process_;
};

} // namespace ganglion::test
