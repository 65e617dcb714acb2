#pragma once

// The storageGrid kind's model: `spec.storageGrid.<event>` of an EventSource, as its spec step
// reads it.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"
#include "ganglion/http/spec.hpp"

namespace ganglion::storagegrid {

/// `filter` (Argo's StorageGridFilter): the object key's prefix and suffix; empty ones pass.
struct key_filter {
  std::string prefix;
  std::string suffix;
};

/// `spec.storageGrid.<event>` (Argo's StorageGridEventSource): StorageGRID posts a bucket's
/// notifications to `webhook`; the source registers that endpoint (`topicArn`) and the bucket's
/// notification configuration (`events`) through the management API at `apiURL`.
struct event_spec {
  http::webhook_spec webhook; ///< Argo's WebhookContext
  /// The S3 event names registered for the bucket (`s3:ObjectCreated:*`); absent is an error.
  std::optional<std::vector<std::string>> events;
  std::optional<key_filter> object_filter; ///< Argo's `filter`
  std::string topic_arn;
  std::string bucket;
  std::string region; ///< read by Argo, used by nothing
  std::optional<dsl::secret_key_selector> auth_token;
  std::string api_url;
  std::map<std::string, std::string> metadata;
  std::optional<dsl::tls_config> tls; ///< of the management API's client
};

/// The spec step of the storageGrid source (reads and checks `spec.storageGrid.<event>`; an
/// event holds its endpoint and port alone, or its endpoint alone with `one_port`,
/// `run --listen`).
dsl::kind_spec source_spec_step(bool one_port = false);

} // namespace ganglion::storagegrid
