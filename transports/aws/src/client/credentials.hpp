#pragma once

// Private: the keys an aws kind signs with, from its secrets or the environment.

#include <optional>
#include <string>
#include <string_view>

#include "ganglion/aws/spec.hpp"
#include "ganglion/core/secrets.hpp"

namespace ganglion::aws {

/// An access key pair and its session token (empty: none).
struct credentials {
  std::string access_key;
  std::string secret_key;
  std::string session_token;
};

/// The credentials of `spec` as Argo's CreateAWSSessionWithCredsInVolume reads them:
/// `accessKey`, `secretKey` and `session_token` from `secrets`; without accessKey and secretKey,
/// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN` from the environment
/// (the first links of the SDK's default chain). `at` is the manifest path of `spec`. Throws
/// std::runtime_error naming the field or variable that is missing.
credentials read_credentials(const credentials_spec& spec,
                             const std::optional<dsl::secret_key_selector>& session_token,
                             const core::secret_store* secrets, std::string_view at);

} // namespace ganglion::aws
