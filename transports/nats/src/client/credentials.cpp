// Resolving auth and TLS settings from the manifest and the secret store.

#include <fmt/format.h>

#include "client/connection.hpp"
#include "client/nkey.hpp"
#include "ganglion/core/read_secret.hpp"

namespace ganglion::nats {

namespace {

std::string read_secret(const core::secret_store* secrets, const dsl::secret_key_selector& ref,
                        const std::string& field) {
  return core::read_secret_or_throw<connection_error>(secrets, ref, field);
}

} // namespace

credentials resolve_credentials(const auth_spec& auth, const core::secret_store* secrets,
                                const std::string& field) {
  credentials out;
  // Argo's order of precedence when several are given.
  if (auth.basic) {
    std::string user, password;
    if (auth.basic->username)
      user = read_secret(secrets, *auth.basic->username, field + ".basic.username");
    if (auth.basic->password)
      password = read_secret(secrets, *auth.basic->password, field + ".basic.password");
    out.user_password.emplace(std::move(user), std::move(password));
  } else if (auth.token) {
    out.token = read_secret(secrets, *auth.token, field + ".token");
  } else if (auth.nkey) {
    auto text = read_secret(secrets, *auth.nkey, field + ".nkey");
    try {
      auto seed = find_nkey_seed(text);
      nkey_public_key(seed);
      out.nkey_seed = std::move(seed);
    } catch (const std::runtime_error& e) {
      throw connection_error(fmt::format("{}: secret {}/{}: {}", field, auth.nkey->name,
                                         auth.nkey->key, e.what()));
    }
  } else if (auth.credential) {
    // cnats reads the creds file itself: the mounted one, or (cluster mode) a private copy.
    out.credentials_file = core::read_secret_or_throw<connection_error>(
      secrets, *auth.credential, field + ".credential", core::secret_form::file);
  }
  return out;
}

tls_settings resolve_tls(const dsl::tls_config& tls, const core::secret_store* secrets,
                         const std::string& field) {
  tls_settings out;
  out.skip_verify = tls.insecure_skip_verify;
  if (tls.ca_cert_secret)
    out.ca_pem = read_secret(secrets, *tls.ca_cert_secret, field + ".caCertSecret");
  if (tls.client_cert_secret)
    out.cert_pem = read_secret(secrets, *tls.client_cert_secret, field + ".clientCertSecret");
  if (tls.client_key_secret)
    out.key_pem = read_secret(secrets, *tls.client_key_secret, field + ".clientKeySecret");
  if (out.cert_pem.empty() != out.key_pem.empty())
    throw connection_error(
      fmt::format("{}: clientCertSecret and clientKeySecret must be given together", field));
  return out;
}

std::string redact_url(const std::string& url) {
  std::string out;
  std::size_t start = 0;
  while (start <= url.size()) {
    auto end = url.find(',', start);
    auto part = url.substr(start, end == std::string::npos ? std::string::npos : end - start);
    auto scheme = part.find("://");
    auto host_start = scheme == std::string::npos ? 0 : scheme + 3;
    auto at = part.find('@', host_start);
    auto slash = part.find('/', host_start);
    if (at != std::string::npos && (slash == std::string::npos || at < slash))
      part = part.substr(0, host_start) + "***" + part.substr(at);
    out += part;
    if (end == std::string::npos)
      break;
    out += ',';
    start = end + 1;
  }
  return out;
}

std::string status_text(natsStatus status) {
  natsStatus last = NATS_OK;
  const char* text = nats_GetLastError(&last);
  if (last != status || text == nullptr || *text == '\0')
    return natsStatus_GetText(status);
  // cnats prefixes its source location: "(conn.c:2088): No server available for connection".
  std::string_view message = text;
  if (message.front() == '(')
    if (auto end = message.find("): "); end != std::string_view::npos)
      message.remove_prefix(end + 3);
  return std::string(message);
}

} // namespace ganglion::nats
