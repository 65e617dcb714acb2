#pragma once

// Not installed: RS256 JSON Web Tokens (RFC 7515/7519) signed with OpenSSL, for the kinds that
// authenticate with a private key: a GitHub App's JWT (kubernetes' git artifact), a Google
// service account's JWT-bearer assertion (gcp's pubSub).

#include <stdexcept>
#include <string>
#include <string_view>

namespace ganglion::dsl {

/// A key that cannot sign; its message never contains the key.
class jwt_error : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// base64url without padding (RFC 7515 §2).
std::string base64url_encode(std::string_view bytes);

/// `base64url(header).base64url(claims).base64url(RS256 signature)`: `header_json` and
/// `claims_json` are sent as given. Throws jwt_error (`not an RSA private key in PEM (…)`,
/// `the key is not an RSA key (…)`, `cannot sign with the key (RS256)`) when
/// `private_key_pem` is not an unencrypted RSA private key in PEM (PKCS #1 or PKCS #8);
/// `why_rsa` completes the second message (`GitHub Apps sign with RS256`).
std::string sign_rs256_jwt(std::string_view header_json, std::string_view claims_json,
                           std::string_view private_key_pem, std::string_view why_rsa);

} // namespace ganglion::dsl
