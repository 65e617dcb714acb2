#pragma once

#include <string>
#include <string_view>

// The connection string of an Azure Storage account, read as the azqueue SDK Argo uses reads
// it, and where its queue service is.

namespace ganglion::azure::detail {

/// azurite's well-known development account (`UseDevelopmentStorage=true`).
inline constexpr const char* development_account = "devstoreaccount1";
/// Its well-known key (public: Microsoft publishes it for the emulators).
inline constexpr const char* development_key =
  "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/// How requests to the queue service are made.
struct storage_account {
  /// The queue service's URL, without a `/` at the end: `https://<account>.queue.<suffix>`,
  /// `QueueEndpoint`, or `http://127.0.0.1:10001/devstoreaccount1`.
  std::string queue_endpoint;
  /// The account that signs (Shared Key); empty with a SAS.
  std::string account_name;
  /// The account key's bytes (AccountKey base64-decoded); empty with a SAS.
  std::string account_key;
  /// The query of a shared access signature (`sv=…&sig=…`), without `?`; empty with a key.
  std::string shared_access_signature;
};

/// Reads `Key=Value;…` as azqueue's ParseConnectionString: keys case-sensitive, the value is
/// what follows the first `=`, trailing `;` dropped; QueueEndpoint, else
/// `<DefaultEndpointsProtocol|https>://<AccountName>.queue.<EndpointSuffix|core.windows.net>`;
/// AccountName with AccountKey signs with Shared Key, else SharedAccessSignature. *ganglion*:
/// `UseDevelopmentStorage=true` (azurite, which azqueue does not read) is the development
/// account at `http://127.0.0.1:10001/devstoreaccount1`. Throws std::invalid_argument naming
/// the key at fault, never a value (the string is a secret).
storage_account parse_storage_connection_string(std::string_view text);

} // namespace ganglion::azure::detail
