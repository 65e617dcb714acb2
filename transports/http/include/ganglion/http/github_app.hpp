#pragma once

// A GitHub App's installation token, as ghinstallation gets it: a JWT signed with the App's key
// is exchanged for an installation token (the password of git's `x-access-token` for the
// kubernetes transport's git artifacts, `Authorization: token …` for the github source's hooks
// API).

#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ganglion::http {

/// Why an installation token could not be had: the message names the field (`path`) and, when
/// GitHub refused, its answer.
class github_app_error : public std::runtime_error {
public:
  /// `refused`: GitHub answered 4xx (a wrong key, App or installation).
  github_app_error(const std::string& what, bool refused = false)
    : std::runtime_error(what), refused(refused) {}
  bool refused;
};

/// The App's JWT at `now`, as ghinstallation signs it: RS256, `iss` the App ID (a string),
/// `iat` 30 s before `now` in whole seconds, `exp` 2 minutes after `iat`. Throws
/// github_app_error at `key_path` when `private_key_pem` is not an RSA private key in PEM
/// (PKCS #1 or PKCS #8, unencrypted); the key never appears in a message.
std::string github_app_jwt(std::string_view private_key_pem, std::int64_t app_id,
                           std::chrono::system_clock::time_point now, const std::string& key_path);

/// The REST API root the App's JWT goes to: `configured` (an engine option or the
/// kind's base URL, trailing `/` dropped), else `https://api.github.com` as ghinstallation's; never derived from `git.url`.
std::string github_api_url(std::string_view configured);

/// Why the JWT may not be sent to `api_url` (not https, no host); empty when it may.
std::string github_api_url_problem(std::string_view api_url);

/// What one token exchange needs.
struct github_app_request {
  /// From github_api_url, https (github_api_url_problem).
  std::string api_url;
  std::int64_t app_id = 0;
  std::int64_t installation_id = 0;
  std::string private_key_pem;
  /// Longest the exchange may take.
  std::chrono::milliseconds timeout{30000};
  /// PEM bundle trusted instead of the system's CAs; empty: the system's.
  std::string ca_file;
};

/// An installation token of `request`'s App: the cached one until a minute before its
/// `expires_at` (ghinstallation's refresh time), else a new one from
/// `POST {api_url}/app/installations/{installation_id}/access_tokens`. Throws github_app_error
/// at `path` (the githubApp field; `path.privateKey` for a bad key), with GitHub's `message`
/// when it refuses.
std::string github_app_token(const github_app_request& request, const std::string& path);

} // namespace ganglion::http
