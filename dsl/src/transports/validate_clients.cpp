#include "transports/validate_clients.hpp"

#include "validate/validate_common.hpp"
#include "yaml/yaml_path.hpp"

namespace ganglion::dsl::detail {

void check_secret(const std::optional<secret_key_selector>& secret, const std::string& path,
                  const load_context& cx) {
  if (!secret)
    return;
  require(secret->name, child_path(path, "name"), "name", cx);
  require(secret->key, child_path(path, "key"), "key", cx);
}

void check_tls(const std::optional<tls_config>& tls, const std::string& path,
               const load_context& cx) {
  if (!tls)
    return;
  bool ca = tls->ca_cert_secret.has_value();
  bool cert = tls->client_cert_secret.has_value();
  bool key = tls->client_key_secret.has_value();
  if (!ca && !cert && !key && !tls->enabled && !tls->insecure_skip_verify)
    cx.error(path, "tls needs caCertSecret, clientCertSecret and clientKeySecret, "
                   "insecureSkipVerify or enabled: true");
  if (cert != key)
    cx.error(path, "tls needs both clientCertSecret and clientKeySecret");
  check_secret(tls->ca_cert_secret, child_path(path, "caCertSecret"), cx);
  check_secret(tls->client_cert_secret, child_path(path, "clientCertSecret"), cx);
  check_secret(tls->client_key_secret, child_path(path, "clientKeySecret"), cx);
}

void check_sasl(const std::optional<sasl_config>& sasl, const std::string& path,
                const load_context& cx) {
  if (!sasl)
    return;
  const auto& m = sasl->mechanism;
  auto at = child_path(path, "mechanism");
  if (m == "OAUTHBEARER" || m == "GSSAPI")
    cx.error(at, "SASL mechanism " + m + " is not supported by ganglion (PLAIN, SCRAM-SHA-256 "
                                         "and SCRAM-SHA-512 are)");
  else if (m != "PLAIN" && m != "SCRAM-SHA-256" && m != "SCRAM-SHA-512")
    cx.error(at, "mechanism must be PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512, got \"" + m + "\"");
  if (!sasl->user_secret)
    cx.error(child_path(path, "userSecret"), "userSecret is required");
  if (!sasl->password_secret)
    cx.error(child_path(path, "passwordSecret"), "passwordSecret is required");
  check_secret(sasl->user_secret, child_path(path, "userSecret"), cx);
  check_secret(sasl->password_secret, child_path(path, "passwordSecret"), cx);
}

void check_nats_auth(const std::optional<nats_auth>& auth, const std::string& path,
                     const load_context& cx) {
  if (!auth)
    return;
  std::string kinds;
  auto count = [&](bool set, const char* name) {
    if (set)
      kinds += (kinds.empty() ? "" : ", ") + std::string{name};
    return set ? 1 : 0;
  };
  int n = count(auth->basic.has_value(), "basic") + count(auth->token.has_value(), "token")
          + count(auth->nkey.has_value(), "nkey")
          + count(auth->credential.has_value(), "credential");
  if (n == 0)
    cx.warning(path, "auth sets none of basic, token, nkey or credential: no authentication");
  else if (n > 1)
    cx.error(path, "auth takes one of basic, token, nkey or credential, found " + kinds);
  if (auth->basic) {
    auto basic = child_path(path, "basic");
    if (!auth->basic->username)
      cx.error(child_path(basic, "username"), "username is required");
    if (!auth->basic->password)
      cx.error(child_path(basic, "password"), "password is required");
    check_secret(auth->basic->username, child_path(basic, "username"), cx);
    check_secret(auth->basic->password, child_path(basic, "password"), cx);
  }
  check_secret(auth->token, child_path(path, "token"), cx);
  check_secret(auth->nkey, child_path(path, "nkey"), cx);
  check_secret(auth->credential, child_path(path, "credential"), cx);
}

void check_consumer_group(const std::optional<kafka_consumer_group>& group,
                          const std::string& path, const load_context& cx) {
  if (!group)
    return;
  const auto& s = group->rebalance_strategy;
  if (!s.empty() && s != "sticky" && s != "roundrobin" && s != "range")
    cx.warning(child_path(path, "rebalanceStrategy"),
               "unknown rebalanceStrategy \"" + s + "\": range is used (sticky, roundrobin or "
                                                    "range, as Argo)");
}

void warn_ignored(const std::string& path, std::string_view key, std::string_view why,
                  const load_context& cx) {
  auto at = child_path(path, key);
  if (present(cx, at))
    cx.warning(at, "ignored: " + std::string{why});
}

} // namespace ganglion::dsl::detail
