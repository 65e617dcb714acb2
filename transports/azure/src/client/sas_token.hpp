#pragma once

#include <cstdint>
#include <string>
#include <string_view>

// Azure Shared Access Signatures for Event Hubs and Service Bus, as the Azure SDK for Go signs
// them (azure-amqp-common-go's sas.Signer).

namespace ganglion::azure::detail {

/// Go's url.QueryEscape: unreserved bytes (A-Z a-z 0-9 - _ . ~) kept, space as `+`, every
/// other byte as `%XX` (upper-case hex).
std::string query_escape(std::string_view text);

/// HMAC-SHA256 of `data` under `key`: the 32 raw bytes.
std::string hmac_sha256(std::string_view key, std::string_view data);

/// `SharedAccessSignature sr=<audience>&sig=<signature>&se=<expiry>&skn=<key_name>`: the
/// audience is the lower-cased query escape of `resource_uri`, the signature the query escape
/// of base64(HMAC-SHA256(key, audience + "\n" + expiry)); `key` is used as its text, as Azure
/// does (not base64-decoded).
std::string sas_token(std::string_view resource_uri, std::string_view key_name,
                      std::string_view key, std::int64_t expiry_unix_seconds);

} // namespace ganglion::azure::detail
