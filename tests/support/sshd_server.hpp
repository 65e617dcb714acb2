#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "child_process.hpp"

namespace ganglion::test {

/// A real OpenSSH `sshd` (/usr/sbin/sshd) on a free 127.0.0.1 port with its own host key,
/// configuration and authorized key in a fresh directory, serving SFTP (`internal-sftp`) and
/// letting in the current user with client_key(); killed when destroyed. stop() and start()
/// again keep the port and the keys (a server restart).
class sshd_server {
public:
  /// Why sshd cannot run on this machine (not installed, no /run/sshd for root and none can be
  /// made); empty when it can.
  static std::string unavailable();

  /// Makes the keys and the configuration, starts sshd and waits until it accepts connections.
  /// Throws std::runtime_error.
  sshd_server();
  ~sshd_server();

  std::uint16_t port() const noexcept { return port_; }
  /// `127.0.0.1:<port>`.
  std::string address() const;
  /// The user sshd lets in: this process's.
  static std::string user();
  /// The client's private key (OpenSSH format, ed25519), in authorized_keys for user().
  std::string client_key() const;
  /// The server's host public key as an authorized_keys line (`ssh-ed25519 AAAA… comment`).
  std::string host_public_key() const;
  /// The directory holding the keys and the configuration.
  const std::string& dir() const noexcept { return dir_; }

  /// Stops sshd (SIGTERM, then SIGKILL after 5 s); open sessions end with it.
  void stop();
  /// Starts it again on the same port and keys. Throws std::runtime_error.
  void start();
  /// What sshd logged.
  std::string output() const;

private:
  std::string dir_;
  std::uint16_t port_;
  std::unique_ptr<child_process> process_;
};

} // namespace ganglion::test
