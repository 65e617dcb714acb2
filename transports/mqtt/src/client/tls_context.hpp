#pragma once

// Private: the OpenSSL context of a TLS connection to a broker, built from PEM text (the
// secrets' values) as Argo's GetTLSConfig builds Go's tls.Config.

#include <memory>
#include <stdexcept>
#include <string>

#include <openssl/ssl.h>

namespace ganglion::mqtt {

/// TLS material as PEM text (empty: not given).
struct tls_material {
  std::string ca_pem;   ///< the only CAs trusted when given; else the system's roots
  std::string cert_pem; ///< client certificate chain
  std::string key_pem;  ///< its private key
  bool skip_verify = false; ///< no chain or host name check, and no client certificate (Argo)
};

/// A connection that cannot be made: bad settings, a missing secret, unreadable PEM.
class connection_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// An SSL_CTX for a client of `host` (a name or an IP address, checked against the server's
/// certificate unless `skip_verify`), TLS 1.2 at least as Go's client. Throws connection_error.
std::shared_ptr<SSL_CTX> make_ssl_context(const tls_material& tls, const std::string& host);

} // namespace ganglion::mqtt
