#include "client/credentials.hpp"

#include <fmt/format.h>

#include "ganglion/core/read_secret.hpp"

namespace ganglion::redis {

namespace {

std::string read_secret(const core::secret_store* secrets, const dsl::secret_key_selector& ref,
                        const std::string& field) {
  return core::read_secret_or_throw<connection_error>(secrets, ref, field);
}

} // namespace

server_settings resolve_server(const server_spec& spec, const core::secret_store* secrets,
                               const std::string& field) {
  server_settings out;
  out.host_address = spec.host_address;
  out.db = spec.db;
  if (spec.password) {
    out.password = read_secret(secrets, *spec.password, field + ".password");
    out.username = spec.username;
  }
  if (spec.tls) {
    tls_settings tls;
    const auto& t = *spec.tls;
    tls.skip_verify = t.insecure_skip_verify;
    if (t.ca_cert_secret)
      tls.ca_pem = read_secret(secrets, *t.ca_cert_secret, field + ".tls.caCertSecret");
    if (t.client_cert_secret)
      tls.cert_pem = read_secret(secrets, *t.client_cert_secret, field + ".tls.clientCertSecret");
    if (t.client_key_secret)
      tls.key_pem = read_secret(secrets, *t.client_key_secret, field + ".tls.clientKeySecret");
    if (tls.cert_pem.empty() != tls.key_pem.empty())
      throw connection_error(fmt::format(
        "{}.tls: clientCertSecret and clientKeySecret must be given together", field));
    out.tls = std::move(tls);
  }
  return out;
}

} // namespace ganglion::redis
