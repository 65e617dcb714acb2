#include "client/credentials.hpp"

#include <cstdlib>
#include <stdexcept>

#include "ganglion/core/read_secret.hpp"

namespace ganglion::aws {

namespace {

std::string environment(const char* name) {
  const char* value = std::getenv(name);
  return value ? value : "";
}

} // namespace

credentials read_credentials(const credentials_spec& spec,
                             const std::optional<dsl::secret_key_selector>& session_token,
                             const core::secret_store* secrets, std::string_view at) {
  auto field = [&](std::string_view key) { return std::string(at) + "." + std::string(key); };
  credentials out;
  if (!spec.access_key && !spec.secret_key) {
    out.access_key = environment("AWS_ACCESS_KEY_ID");
    out.secret_key = environment("AWS_SECRET_ACCESS_KEY");
    out.session_token = environment("AWS_SESSION_TOKEN");
    if (out.access_key.empty() || out.secret_key.empty())
      throw std::runtime_error(
        std::string(at) + ": no AWS credentials: accessKey and secretKey are not set and "
        "AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY are not in the environment (ganglion does not "
        "read instance profiles, shared config files or web identity tokens)");
    return out;
  }
  if (!spec.access_key || !spec.secret_key)
    throw std::runtime_error(field(spec.access_key ? "secretKey" : "accessKey")
                             + ": is required with " + (spec.access_key ? "accessKey" : "secretKey"));
  out.access_key =
    core::read_secret_or_throw<std::runtime_error>(secrets, *spec.access_key, field("accessKey"));
  out.secret_key =
    core::read_secret_or_throw<std::runtime_error>(secrets, *spec.secret_key, field("secretKey"));
  if (session_token)
    out.session_token = core::read_secret_or_throw<std::runtime_error>(
      secrets, *session_token, field("sessionToken"));
  return out;
}

} // namespace ganglion::aws
