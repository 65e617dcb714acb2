#pragma once

#include <string>
#include <string_view>

// The connection string of an Azure Service Bus or Event Hubs namespace.

namespace ganglion::azure::detail {

/// What a connection string holds.
struct connection_string {
  /// The namespace's host (`Endpoint=sb://<host>/`), with its port when one is given.
  std::string host;
  std::string shared_access_key_name;
  std::string shared_access_key;
  /// A ready `SharedAccessSignature sr=…` token, when the string carries one instead of a key.
  std::string shared_access_signature;
  /// `EntityPath`, when given.
  std::string entity_path;
};

/// Parses `Key=Value;…` as the Azure SDK does: keys case-insensitive, the value is everything
/// after the first `=`, empty parts skipped. Needs Endpoint, and SharedAccessKeyName with
/// SharedAccessKey or SharedAccessSignature. Throws std::invalid_argument naming the key at
/// fault and never a value (the string is a secret).
connection_string parse_connection_string(std::string_view text);

} // namespace ganglion::azure::detail
