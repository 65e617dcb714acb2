#pragma once

// Private: one connection to a Redis server over plain TCP or TLS (OpenSSL), speaking RESP
// through hiredis' encoder and reply parser. One thread uses a connection; a waker lets another
// thread interrupt its reads.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ganglion::redis {

/// The server cannot be reached, refused a command the connection needs, or went away.
class connection_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// TLS of a connection: PEM texts from the secrets (empty: not given).
struct tls_settings {
  std::string ca_pem; ///< empty: the system's roots
  std::string cert_pem;
  std::string key_pem;
  bool skip_verify = false;
};

/// Where and how to connect.
struct server_settings {
  std::string host_address; ///< `host:port`
  std::optional<tls_settings> tls;
  std::string username;
  std::string password; ///< AUTH is sent when not empty
  std::int64_t db = 0;  ///< SELECT is sent when not 0
  std::chrono::milliseconds timeout{2000};
};

/// One RESP reply.
struct reply {
  /// RESP2's reply types.
  enum class type { string, array, integer, nil, status, error };
  type kind = type::nil;
  std::string text; ///< string, status, error
  long long integer = 0;
  std::vector<reply> elements;

  /// True for an error reply (`-ERR …`, `-NOGROUP …`).
  bool is_error() const noexcept { return kind == type::error; }
};

/// An eventfd that makes every read of the connections it is given to return at once.
class waker {
public:
  waker();
  ~waker();
  waker(const waker&) = delete;
  waker& operator=(const waker&) = delete;
  /// Wakes every current and later read (for good).
  void wake() const;
  /// The eventfd, readable once woken.
  int fd() const noexcept { return fd_; }

private:
  int fd_;
};

/// An open, authenticated connection with its database selected.
class connection {
public:
  /// Connects, handshakes TLS, sends AUTH and SELECT as go-redis does, then PING as Argo does.
  /// Throws connection_error naming the address.
  static std::unique_ptr<connection> open(const server_settings& settings, const waker& wake);
  ~connection();
  connection(const connection&) = delete;
  connection& operator=(const connection&) = delete;

  /// Sends one command. Throws connection_error.
  void send(const std::vector<std::string>& args);
  /// The next reply, or nullopt when `timeout` passed or the waker woke. Throws
  /// connection_error when the server closed the connection or sent what is not RESP.
  std::optional<reply> read(std::chrono::milliseconds timeout);
  /// send() and read() within the connection's timeout; a timeout throws connection_error, a
  /// wake returns nullopt.
  std::optional<reply> call(const std::vector<std::string>& args);

  /// `host:port`, for messages.
  const std::string& address() const noexcept { return address_; }

private:
  struct state;
  explicit connection(std::unique_ptr<state> s);
  std::unique_ptr<state> state_;
  std::string address_;
};

/// A reply's text for a message: an error's text, else its type.
std::string describe(const reply& r);

} // namespace ganglion::redis
