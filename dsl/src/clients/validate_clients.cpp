#include "ganglion/dsl/kind/client_rules.hpp"

#include "ganglion/dsl/kind/rules.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

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

void check_secure_headers(const std::vector<secure_header>& headers, const std::string& path,
                          const load_context& cx) {
  for (std::size_t i = 0; i < headers.size(); ++i) {
    const auto& h = headers[i];
    auto at = item_path(path, i);
    require(h.name, child_path(at, "name"), "name", cx);
    auto from = child_path(at, "valueFrom");
    if (h.secret.has_value() == h.config_map.has_value())
      cx.error(from, "valueFrom needs one of secretKeyRef and configMapKeyRef");
    check_secret(h.secret, child_path(from, "secretKeyRef"), cx);
    check_secret(h.config_map, child_path(from, "configMapKeyRef"), cx);
  }
}

void warn_ignored(const std::string& path, std::string_view key, std::string_view why,
                  const load_context& cx) {
  auto at = child_path(path, key);
  if (present(cx, at))
    cx.warning(at, "ignored: " + std::string{why});
}

} // namespace ganglion::dsl::detail
