#include "ganglion/http/github_app.hpp"

#include <ctime>
#include <map>
#include <memory>
#include <mutex>
#include <optional>

#include <curl/curl.h>
#include <simdjson.h>

#include "ganglion/dsl/go/codec.hpp"
#include "ganglion/dsl/kind/yaml_path.hpp"

namespace ganglion::http {

namespace {

using wall = std::chrono::system_clock;
using easy_handle = std::unique_ptr<CURL, decltype(&curl_easy_cleanup)>;
using header_list = std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)>;

/// The largest answer read from the token endpoint.
constexpr std::size_t max_answer = std::size_t{64} << 10;

struct cached_token {
  std::string token;
  wall::time_point expires_at;
};

std::mutex cache_guard;
std::map<std::string, cached_token>& cache() {
  static std::map<std::string, cached_token> tokens;
  return tokens;
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto& body = *static_cast<std::string*>(user);
  auto n = size * count;
  if (body.size() + n > max_answer)
    return 0;
  body.append(data, n);
  return n;
}

struct answer {
  long status = 0;
  std::string body;
};

answer post(const std::string& url, const std::string& jwt, const github_app_request& request,
            const std::string& path) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  easy_handle handle{curl_easy_init(), &curl_easy_cleanup};
  if (!handle)
    throw github_app_error(path + ": cannot start an HTTP request (curl_easy_init failed)");
  auto* h = handle.get();
  auto bearer = "Authorization: Bearer " + jwt;
  header_list headers{nullptr, &curl_slist_free_all};
  for (const auto* line : {bearer.c_str(), "Accept: application/vnd.github.v3+json",
                           "User-Agent: ganglion", "Content-Type:"})
    headers.reset(curl_slist_append(headers.release(), line));
  answer out;
  char error[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "https");
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 0L);
  if (!request.ca_file.empty())
    curl_easy_setopt(h, CURLOPT_CAINFO, request.ca_file.c_str());
  curl_easy_setopt(h, CURLOPT_POST, 1L);
  curl_easy_setopt(h, CURLOPT_POSTFIELDS, "");
  curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, 0L);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(request.timeout.count()));
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &out.body);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
  auto code = curl_easy_perform(h);
  if (code == CURLE_WRITE_ERROR)
    throw github_app_error(path + ": POST " + url + " answered more than "
                         + std::to_string(max_answer) + " bytes");
  if (code != CURLE_OK)
    throw github_app_error(path + ": POST " + url + " failed: "
                         + (error[0] ? std::string{error} : curl_easy_strerror(code)));
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &out.status);
  return out;
}

/// GitHub's `expires_at` (`2016-07-11T22:14:10Z`, UTC), or nullopt.
std::optional<wall::time_point> parse_expiry(const std::string& text) {
  std::tm tm{};
  char zone = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
                  &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &zone)
        != 7
      || zone != 'Z')
    return std::nullopt;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  return wall::from_time_t(timegm(&tm));
}

/// The string at `key` of the JSON object `body`; nullopt when there is none.
std::optional<std::string> string_at(const std::string& body, const char* key) {
  simdjson::dom::parser parser;
  simdjson::dom::element doc;
  std::string_view value;
  if (parser.parse(body).get(doc) != simdjson::SUCCESS || doc[key].get(value) != simdjson::SUCCESS)
    return std::nullopt;
  return std::string{value};
}

cached_token exchange(const github_app_request& request, const std::string& path) {
  auto jwt = github_app_jwt(request.private_key_pem, request.app_id, wall::now(),
                            dsl::detail::child_path(path, "privateKey"));
  auto url = request.api_url + "/app/installations/" + std::to_string(request.installation_id)
             + "/access_tokens";
  if (auto problem = github_api_url_problem(request.api_url); !problem.empty())
    throw github_app_error(path + ": " + problem, true);
  auto reply = post(url, jwt, request, path);
  auto who = " (appID " + std::to_string(request.app_id) + ", installationID "
             + std::to_string(request.installation_id) + ")";
  if (reply.status / 100 != 2) {
    auto message = string_at(reply.body, "message");
    throw github_app_error(path + ": POST " + url + " answered HTTP " + std::to_string(reply.status)
                         + (message ? ": " + *message : std::string{}) + who, reply.status / 100 == 4);
  }
  auto token = string_at(reply.body, "token");
  auto expires = string_at(reply.body, "expires_at");
  auto expires_at = expires ? parse_expiry(*expires) : std::nullopt;
  if (!token || token->empty() || !expires_at)
    throw github_app_error(path + ": POST " + url + " answered without a token and its expires_at"
                         + who);
  return {std::move(*token), *expires_at};
}

} // namespace

std::string github_app_token(const github_app_request& request, const std::string& path) {
  auto key =
    dsl::sha256_hex(request.api_url + "\n" + std::to_string(request.app_id) + "\n"
                    + std::to_string(request.installation_id) + "\n" + request.private_key_pem);
  std::lock_guard lock{cache_guard};
  auto& tokens = cache();
  auto found = tokens.find(key);
  if (found == tokens.end() || wall::now() >= found->second.expires_at - std::chrono::minutes{1})
    found = tokens.insert_or_assign(key, exchange(request, path)).first;
  return found->second.token;
}

} // namespace ganglion::http
