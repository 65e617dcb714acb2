#pragma once

// `git.githubApp`: the credentials Argo's git reader gets from a GitHub App (ghinstallation):
// the http transport's installation token (ganglion/http/github_app.hpp), which git sends as the
// password of user `x-access-token`; its errors become artifact_error.

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include "artifact/artifact.hpp"
#include "ganglion/http/github_app.hpp"

namespace ganglion::kubernetes::detail {

using http::github_api_url;
using http::github_api_url_problem;
/// What one token exchange needs (http::github_app_request; its own type, so that calls here
/// pick the functions that throw artifact_error).
struct github_app_request : http::github_app_request {};

/// http::github_app_jwt; throws artifact_error.
inline std::string github_app_jwt(std::string_view private_key_pem, std::int64_t app_id,
                                  std::chrono::system_clock::time_point now,
                                  const std::string& key_path) {
  try {
    return http::github_app_jwt(private_key_pem, app_id, now, key_path);
  } catch (const http::github_app_error& e) {
    throw artifact_error(e.what());
  }
}

/// http::github_app_token; throws artifact_error.
inline std::string github_app_token(const github_app_request& request, const std::string& path) {
  try {
    return http::github_app_token(request, path);
  } catch (const http::github_app_error& e) {
    throw artifact_error(e.what());
  }
}

} // namespace ganglion::kubernetes::detail
