#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ganglion/dsl/model.hpp"
#include "ganglion/dsl/kind/load_context.hpp"

// Rules on the client settings (Argo common types) that sources, triggers and buses share.

namespace ganglion::dsl::detail {

/// A secret (or config map) reference needs both `name` and `key` (*ganglion*: they name
/// SECRETS_DIR/<name>/<key>).
void check_secret(const std::optional<secret_key_selector>& secret, const std::string& path,
                  const load_context& cx);

/// Argo's ValidateTLSConfig: caCertSecret, or clientCertSecret with clientKeySecret, or
/// insecureSkipVerify, or enabled.
void check_tls(const std::optional<tls_config>& tls, const std::string& path,
               const load_context& cx);

/// Argo's ValidateSASLConfig, less the mechanisms ganglion's librdkafka build does not offer:
/// PLAIN, SCRAM-SHA-256 and SCRAM-SHA-512 run; OAUTHBEARER and GSSAPI are refused.
void check_sasl(const std::optional<sasl_config>& sasl, const std::string& path,
                const load_context& cx);

/// `consumerGroup.rebalanceStrategy`: sticky, roundrobin or range; anything else warns (Argo
/// logs and uses range).
void check_consumer_group(const std::optional<kafka_consumer_group>& group,
                          const std::string& path, const load_context& cx);

/// `secureHeaders[]`: each needs a name and one of secretKeyRef and configMapKeyRef.
void check_secure_headers(const std::vector<secure_header>& headers, const std::string& path,
                          const load_context& cx);

/// Warns "ignored: <why>" at `path.key` when the manifest sets `key`.
void warn_ignored(const std::string& path, std::string_view key, std::string_view why,
                  const load_context& cx);

} // namespace ganglion::dsl::detail
