#include <string>

#include "ganglion/dsl/go/jwt.hpp"
#include "ganglion/http/github_app.hpp"

namespace ganglion::http {

std::string github_app_jwt(std::string_view private_key_pem, std::int64_t app_id,
                           std::chrono::system_clock::time_point now, const std::string& key_path) {
  using namespace std::chrono;
  auto issued = duration_cast<seconds>((now - seconds{30}).time_since_epoch()).count();
  auto expires = issued + 120;
  auto claims = "{\"iss\":\"" + std::to_string(app_id) + "\",\"exp\":" + std::to_string(expires)
                + ",\"iat\":" + std::to_string(issued) + "}";
  try {
    return dsl::sign_rs256_jwt(R"({"alg":"RS256","typ":"JWT"})", claims, private_key_pem,
                               "GitHub Apps sign with RS256");
  } catch (const dsl::jwt_error& e) {
    throw github_app_error(key_path + ": " + e.what(), true);
  }
}

std::string github_api_url(std::string_view configured) {
  while (configured.ends_with('/'))
    configured.remove_suffix(1);
  return configured.empty() ? std::string{"https://api.github.com"} : std::string{configured};
}

std::string github_api_url_problem(std::string_view api_url) {
  if (!api_url.starts_with("https://"))
    return "the GitHub API URL must be https:// (the App's JWT is never sent in clear)";
  auto host = api_url.substr(8);
  host = host.substr(0, host.find_first_of("/?#"));
  if (host.empty() || host.find('@') != std::string_view::npos)
    return "the GitHub API URL must name a host (and no user)";
  return {};
}

} // namespace ganglion::http
