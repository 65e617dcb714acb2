#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "child_process.hpp"

namespace ganglion::test {

/// How to start a mosquitto_server; the defaults are an anonymous plain listener.
struct mosquitto_server_options {
  /// With `password`: clients must log in (a password file made with mosquitto_passwd).
  std::string user;
  std::string password;
  /// PEM files of the server's certificate and key: the listener speaks TLS only.
  std::string cert_file;
  std::string key_file;
  /// More lines of the configuration file.
  std::string extra_config;
};

/// A real `mosquitto` broker on a free 127.0.0.1 port, with its configuration file and its
/// persistence directory in a fresh temporary directory; killed when destroyed. stop() and
/// start() again keep the port and the persistence directory (a broker restart mid-stream).
class mosquitto_server {
public:
  /// Starts an anonymous plain broker and waits until it accepts connections.
  mosquitto_server();
  /// Starts the broker with `options`. Throws std::runtime_error.
  explicit mosquitto_server(mosquitto_server_options options);
  ~mosquitto_server();

  /// `tcp://127.0.0.1:<port>` (`ssl://…` with a certificate).
  std::string url() const;
  std::uint16_t port() const noexcept { return port_; }
  /// Stops the broker (SIGTERM, then SIGKILL after 5 s).
  void stop();
  /// Starts it again on the same port and persistence directory.
  void start();
  /// What the broker logged.
  std::string output() const;

private:
  mosquitto_server_options options_;
  std::uint16_t port_;
  std::string dir_;
  std::unique_ptr<child_process> process_;
};

} // namespace ganglion::test
