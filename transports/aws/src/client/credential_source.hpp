#pragma once

// Private: the credentials an aws kind signs with at a given moment: its keys, or with roleARN
// the role's temporary credentials (STS AssumeRole), assumed again before they expire.

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <string>

#include "client/api_call.hpp"

namespace ganglion::aws {

/// Argo's CreateAWSSessionWithCredsInVolume: the keys (secrets or environment), and with a
/// role ARN aws-sdk-go's stscreds provider over them (AssumeRole, RoleSessionName the time in
/// nanoseconds, 900 s). Thread-safe; held by std::shared_ptr (an AssumeRole in flight keeps it).
/// It does not keep the client alive: a completion must never hold the client's last reference
/// (its destructor cannot run on its own thread).
class credential_source : public std::enable_shared_from_this<credential_source> {
public:
  /// Receives the credentials, or empty ones and why not.
  using completion = std::function<void(credentials keys, std::string error)>;

  /// Signs with `keys`, or, when `role_arn` is set, assumes the role with them at `sts`.
  credential_source(credentials keys, std::string role_arn, std::shared_ptr<http::client> client,
                    api_endpoint sts, std::chrono::milliseconds timeout);

  /// Calls `done` once: on this thread when no role is assumed or the role's credentials are
  /// good for another minute, else on the client's thread once STS answered.
  void get(completion done);

  /// get() waited for; throws std::runtime_error with STS's reason. Not on the client's thread.
  credentials wait();

  /// Whether a role is assumed.
  bool assumes_role() const { return !role_arn_.empty(); }

  /// Drops the role's credentials (AWS answered ExpiredToken): the next get() assumes again.
  void expire();

  /// The keys it was made with (the role's base keys).
  const credentials& base() const { return base_; }

private:
  void assumed(const http::client_response& r, const completion& done);

  credentials base_;
  std::string role_arn_;
  std::weak_ptr<http::client> client_;
  api_endpoint sts_;
  std::chrono::milliseconds timeout_;
  std::mutex mutex_;
  credentials role_keys_;
  std::chrono::system_clock::time_point expires_{};
};

/// The credential source of `spec` (read_credentials with `session_token`, at manifest path
/// `at`), assuming `spec.role_arn` at STS: `sts_endpoint` (`--aws-endpoint`) or STS's regional
/// endpoint. Throws std::runtime_error naming what is missing.
std::shared_ptr<credential_source>
make_credential_source(const credentials_spec& spec,
                       const std::optional<dsl::secret_key_selector>& session_token,
                       const core::secret_store* secrets, std::string_view at,
                       std::shared_ptr<http::client> client, std::string_view sts_endpoint,
                       std::chrono::milliseconds timeout);

/// The parts of an AssumeRole answer: the credentials and when they expire; nullopt when the
/// answer holds none.
std::optional<std::pair<credentials, std::chrono::system_clock::time_point>>
read_assumed_role(const std::string& xml);

} // namespace ganglion::aws
