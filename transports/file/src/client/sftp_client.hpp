#pragma once

// Private: an SFTP client session over libssh, as Argo's sftp source uses golang.org/x/crypto/ssh
// and github.com/pkg/sftp: connect, check the host key, log in, list a directory.

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "ganglion/core/secrets.hpp"
#include "ganglion/file/spec.hpp"

namespace ganglion::file {

/// Raised when a session cannot be made or a listing fails; says why.
class sftp_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// What a session logs in with (from the event's secrets).
struct sftp_credentials {
  std::string user;
  std::string host;
  int port = 22;
  std::optional<std::string> password;
  std::string private_key;     ///< PEM or OpenSSH text, when no password
  std::string host_key_base64; ///< the pinned host key (with a private key), base64 …
  std::string host_key_type;   ///< … of this type (`ssh-ed25519`)
};

/// Reads the event's credentials as Argo's StartListening does: `username` and `address`
/// always; `sshKeySecret` (a private key, and the server's public key as an authorized_keys
/// line, which Argo pins as the host key) when given, else `password` (any host key).
/// Throws sftp_error (`username not found, …`, `failed to parse public ssh key`).
sftp_credentials resolve_credentials(const sftp_event_spec& spec,
                                     const core::secret_store* secrets);

/// One entry of a listing (pkg/sftp's FileInfo: name, size, modification time in seconds).
struct remote_file {
  std::string name;
  std::uint64_t size = 0;
  std::uint64_t mtime = 0;
};

/// A logged-in SFTP session.
class sftp_session {
public:
  /// Connects to `credentials.host`:`port` (each blocking step up to `timeout`), checks the
  /// host key when one is pinned, authenticates and opens the SFTP subsystem. Throws
  /// sftp_error.
  sftp_session(const sftp_credentials& credentials, std::chrono::milliseconds timeout);
  ~sftp_session();
  sftp_session(const sftp_session&) = delete;
  sftp_session& operator=(const sftp_session&) = delete;

  /// The entries of `directory` that are not directories, in the server's order. Throws
  /// sftp_error.
  std::vector<remote_file> list_files(const std::string& directory);

private:
  struct handles;
  std::unique_ptr<handles> handles_;
};

} // namespace ganglion::file
