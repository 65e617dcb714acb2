#include "client/credentials.hpp"

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "ganglion/dsl/go/jwt.hpp"

namespace ganglion::gcp::detail {

namespace {

std::string field(const nlohmann::json& j, const char* key) {
  auto i = j.find(key);
  return i != j.end() && i->is_string() ? i->get<std::string>() : std::string{};
}

/// The JSON of a Go string (claims and header hold e-mail addresses and URLs).
std::string quoted(const std::string& text) {
  return nlohmann::json(text).dump();
}

} // namespace

service_account parse_service_account(std::string_view json) {
  auto j = nlohmann::json::parse(json, nullptr, false);
  if (!j.is_object())
    throw std::invalid_argument("the credentials are not a JSON object (a service account key)");
  auto type = field(j, "type");
  if (type != "service_account")
    throw std::invalid_argument("the credentials are of type \"" + type
                                + "\": only a service account key (\"service_account\") runs");
  service_account out{field(j, "client_email"), field(j, "private_key"), field(j, "private_key_id"),
                      field(j, "token_uri")};
  if (out.client_email.empty())
    throw std::invalid_argument("the service account key has no client_email");
  if (out.private_key.empty())
    throw std::invalid_argument("the service account key has no private_key");
  if (out.token_uri.empty())
    out.token_uri = "https://oauth2.googleapis.com/token";
  if (auto problem = token_uri_problem(out.token_uri); !problem.empty())
    throw std::invalid_argument(problem);
  return out;
}

std::string token_uri_problem(std::string_view uri) {
  if (uri.starts_with("https://"))
    return {};
  for (std::string_view loopback : {"http://127.0.0.1:", "http://127.0.0.1/", "http://localhost:",
                                    "http://localhost/", "http://[::1]:", "http://[::1]/"})
    if (uri.starts_with(loopback))
      return {};
  return "the service account's token_uri must be https:// (the signed assertion is never sent "
         "in clear, except to a loopback address)";
}

std::string token_assertion(const service_account& account,
                            std::chrono::system_clock::time_point now) {
  using namespace std::chrono;
  auto issued = duration_cast<seconds>((now - seconds{10}).time_since_epoch()).count();
  std::string header = R"({"alg":"RS256","typ":"JWT")";
  if (!account.private_key_id.empty())
    header += ",\"kid\":" + quoted(account.private_key_id);
  header += '}';
  auto claims = "{\"iss\":" + quoted(account.client_email) + ",\"scope\":" + quoted(pubsub_scopes)
                + ",\"aud\":" + quoted(account.token_uri) + ",\"exp\":"
                + std::to_string(issued + 3600) + ",\"iat\":" + std::to_string(issued) + "}";
  return dsl::sign_rs256_jwt(header, claims, account.private_key,
                             "a service account key signs with RS256");
}

std::string token_request_body(std::string_view assertion) {
  // The assertion is base64url and dots: nothing to escape.
  return "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion="
         + std::string{assertion};
}

access_token parse_token_response(std::string_view body,
                                  std::chrono::steady_clock::time_point now) {
  auto j = nlohmann::json::parse(body, nullptr, false);
  auto token = j.is_object() ? field(j, "access_token") : std::string{};
  if (token.empty())
    throw std::invalid_argument("the token endpoint answered no access_token");
  std::int64_t seconds = 3600;
  if (auto i = j.find("expires_in"); i != j.end() && i->is_number_integer())
    seconds = i->get<std::int64_t>();
  return {token, now + std::chrono::seconds{seconds}};
}

} // namespace ganglion::gcp::detail
