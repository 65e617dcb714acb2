#pragma once

// The minio kind's model: `spec.minio.<event>` of an EventSource (Argo's S3Artifact), as its
// spec step reads it.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "ganglion/dsl/kind_spec.hpp"
#include "ganglion/dsl/model/common.hpp"

namespace ganglion::minio {

/// `bucket`: the bucket listened to (`key` is not used by the source, as in Argo).
struct bucket_spec {
  std::string name;
  std::string key;
};

/// `spec.minio.<event>`.
struct event_spec {
  /// `host[:port]`, no scheme (minio-go's endpoint).
  std::string endpoint;
  std::optional<bucket_spec> bucket;
  std::string region;
  bool insecure = false;
  std::optional<dsl::secret_key_selector> access_key;
  std::optional<dsl::secret_key_selector> secret_key;
  std::optional<dsl::secret_key_selector> ca_certificate;
  /// S3 event names (`s3:ObjectCreated:Put`); none: the server's default (every event).
  std::vector<std::string> events;
  /// `filter.prefix`, `filter.suffix` of the object keys.
  std::string prefix;
  std::string suffix;
  std::map<std::string, std::string> metadata;
};

/// The spec step of the minio source (reads and checks `spec.minio.<event>`).
dsl::kind_spec source_spec_step();

} // namespace ganglion::minio
