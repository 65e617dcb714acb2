#include "client/client_settings.hpp"

#include <fmt/format.h>

#include "ganglion/core/read_secret.hpp"

namespace ganglion::mqtt {

namespace {

std::string read_secret(const core::secret_store* secrets, const dsl::secret_key_selector& ref,
                        const std::string& field) {
  return core::read_secret_or_throw<connection_error>(secrets, ref, field);
}

tls_material read_tls(const dsl::tls_config& tls, const core::secret_store* secrets) {
  tls_material out;
  out.skip_verify = tls.insecure_skip_verify;
  if (out.skip_verify)
    return out;
  if (tls.ca_cert_secret)
    out.ca_pem = read_secret(secrets, *tls.ca_cert_secret, "mqtt.tls.caCertSecret");
  if (tls.client_cert_secret)
    out.cert_pem = read_secret(secrets, *tls.client_cert_secret, "mqtt.tls.clientCertSecret");
  if (tls.client_key_secret)
    out.key_pem = read_secret(secrets, *tls.client_key_secret, "mqtt.tls.clientKeySecret");
  return out;
}

} // namespace

client_settings resolve_settings(const event_spec& spec, const core::secret_store* secrets) {
  client_settings out;
  out.url = spec.url;
  std::string error;
  auto address = parse_broker_url(spec.url, error);
  if (!address)
    throw connection_error(fmt::format("mqtt.url {}: {}", spec.url, error));
  out.address = *address;
  out.client_id = spec.client_id;
  if (spec.auth && spec.auth->username && spec.auth->password) {
    auto user = read_secret(secrets, *spec.auth->username, "mqtt.auth.username");
    auto password = read_secret(secrets, *spec.auth->password, "mqtt.auth.password");
    out.user_password.emplace(std::move(user), std::move(password));
  }
  if (out.address.tls) {
    auto material = spec.tls ? read_tls(*spec.tls, secrets) : tls_material{};
    try {
      out.ssl = make_ssl_context(material, out.address.host);
    } catch (const connection_error& e) {
      throw connection_error(fmt::format("mqtt.tls: {}", e.what()));
    }
  }
  return out;
}

} // namespace ganglion::mqtt
