#include "source/server_request.hpp"

#include <nlohmann/json.hpp>

#include "ganglion/core/secrets.hpp"
#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/http/internal/provider_event_data.hpp"

namespace ganglion::bitbucket::detail {

namespace {

constexpr const char* invalid = "failed to validate bitbucketserver webhook request: ";

} // namespace

http::push_outcome server_request(const http::request& req, const std::string& secret,
                                  const std::map<std::string, std::string>& metadata) {
  if (!secret.empty()) {
    auto signature = req.header("X-Hub-Signature");
    if (signature.empty())
      return http::push_outcome::refuse(400, "signature",
                                        std::string(invalid) + "missing signature header");
    auto expected = dsl::hmac_sha256_hex(secret, req.body);
    // Argo compares what follows the first 7 bytes (`sha256=`); a shorter header panics there.
    if (signature.size() < 7 || !core::constant_time_equal(signature.substr(7), expected))
      return http::push_outcome::refuse(400, "signature",
                                        std::string(invalid) + "hmac verification failed");
  }
  if (req.header("X-Event-Key") == "repo:refs_changed") {
    auto body = nlohmann::json::parse(req.body, nullptr, false);
    if (!body.is_object() && !body.is_null())
      return http::push_outcome::refuse(
        400, "bad_request", "decoding repo:refs_changed webhook: the body is not a JSON object");
  }
  return http::detail::provider_push_outcome(req, metadata);
}

} // namespace ganglion::bitbucket::detail
