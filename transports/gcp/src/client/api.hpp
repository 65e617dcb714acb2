#pragma once

// Calls to the Pub/Sub REST API (v1) on the shared libcurl client, waited for on the caller's
// thread, with a bearer token from the service account (none for the emulator).

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "client/credentials.hpp"
#include "ganglion/http/client.hpp"

namespace ganglion::gcp::detail {

/// A call that failed: no answer (`status` 0), an error answer, or no token.
class api_error : public std::runtime_error {
public:
  api_error(const std::string& what, long status, std::string code)
    : std::runtime_error(what), status(status), code(std::move(code)) {}
  long status;      ///< the HTTP status; 0: no answer
  std::string code; ///< Google's `error.status` (`NOT_FOUND`, `ALREADY_EXISTS` …), when given
};

/// One source's access token, shared by its api clients (setup, pulling, deletion).
struct token_cache {
  std::mutex mutex;
  std::optional<access_token> token;
};

/// Where the API is and how to authenticate.
struct api_settings {
  std::string base_url; ///< `https://pubsub.googleapis.com` or `http://<emulator host>`
  std::optional<service_account> account; ///< none: no Authorization header (the emulator)
  std::chrono::milliseconds call_timeout{30000};
  std::shared_ptr<token_cache> tokens = std::make_shared<token_cache>();
};

/// The `https://…` or `http://<PUBSUB_EMULATOR_HOST>` root for `emulator_host` (empty: none).
std::string api_root(const std::string& api_url, const std::string& emulator_host);

/// One source's API client. Thread-safe.
class api {
public:
  /// `stopping` is polled while a call is waited for.
  api(std::shared_ptr<http::client> requests, api_settings settings,
      std::function<bool()> stopping);

  /// `method` on `path` (`/v1/projects/…`) with JSON `body` (none when empty). Returns the
  /// answer when it is 2xx; nullopt when stopping first. Throws api_error (an error answer
  /// with Google's message, no answer, no token); `timed_out` is set instead of throwing when
  /// given and the call timed out.
  std::optional<std::string> call(const std::string& method, const std::string& path,
                                  const std::string& body,
                                  std::optional<std::chrono::milliseconds> timeout = {},
                                  std::size_t max_response_bytes = std::size_t{64} << 20,
                                  bool* timed_out = nullptr);

  /// Whether a token is used (not the emulator).
  bool authenticated() const noexcept { return settings_.account.has_value(); }

private:
  std::optional<http::client_response> send(http::client_request request);
  std::optional<std::string> bearer();

  std::shared_ptr<http::client> requests_;
  api_settings settings_;
  std::function<bool()> stopping_;
};

} // namespace ganglion::gcp::detail
