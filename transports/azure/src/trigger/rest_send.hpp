#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ganglion/core/trigger.hpp"
#include "ganglion/http/client.hpp"

// What the azureEventHubs and azureServiceBus triggers share: one REST POST of the payload per
// firing, authorized by a SAS token, on the shared libcurl client.

namespace ganglion::azure::detail {

/// Where and how a trigger sends, fixed when its executor is created.
struct rest_target {
  /// The POST's URL (`https://<host>/<entity>/messages…`, or under `--azure-endpoint`).
  std::string url;
  /// The URI the SAS token names (`https://<host>/<entity>`).
  std::string resource_uri;
  std::string key_name;
  std::string key;
  /// A ready token (a connection string's SharedAccessSignature) instead of key_name and key.
  std::string fixed_token;
  /// Headers besides Authorization.
  std::vector<std::pair<std::string, std::string>> headers;
  std::optional<http::client_tls> tls;
  /// How long a token is valid from the moment it is made.
  std::chrono::seconds token_lifetime{3600};
};

/// The executor: sends `invocation.payload`; an HTTP 2xx answer is success, anything else
/// (no answer, 401, 404, 503 …) fails the execution with the status and the start of Azure's
/// answer, for the core's retries and dead letters.
std::unique_ptr<core::trigger_executor> make_rest_executor(std::shared_ptr<http::client> requests,
                                                           rest_target target);

/// `endpoint` (`--azure-endpoint`) when set, else `https://<host>`.
std::string base_url(const std::string& endpoint, const std::string& host);

/// Throws core::trigger_error when `name` has a byte an Azure entity path cannot hold (letters,
/// digits, `.`, `-`, `_`, `/`, `~` are allowed), so that no name can reach another URL.
void check_entity_name(const std::string& name, const char* field);

/// Throws core::trigger_error when `host` is not a host name (letters, digits, `.`, `-`, `_`,
/// and a `:port`).
void check_host(const std::string& host, const char* field);

/// The TLS settings of a `tls` block, read from the trigger's secrets.
http::client_tls read_tls(const core::trigger_context& ctx, const dsl::tls_config& tls);

} // namespace ganglion::azure::detail
