#include "client/credential_source.hpp"

#include <ctime>
#include <future>

#include <fmt/format.h>

namespace ganglion::aws {

namespace {

constexpr auto refresh_margin = std::chrono::minutes(1);

/// `2026-12-06T01:00:00Z` (STS's Expiration, fractions of a second ignored) as a time.
std::optional<std::chrono::system_clock::time_point> parse_utc(const std::string& text) {
  std::tm tm{};
  const char* end = strptime(text.c_str(), "%Y-%m-%dT%H:%M:%S", &tm);
  if (end == nullptr)
    return std::nullopt;
  return std::chrono::system_clock::from_time_t(timegm(&tm));
}

} // namespace

std::optional<std::pair<credentials, std::chrono::system_clock::time_point>>
read_assumed_role(const std::string& xml) {
  credentials keys{xml_text(xml, "AccessKeyId"), xml_text(xml, "SecretAccessKey"),
                   xml_text(xml, "SessionToken")};
  auto expires = parse_utc(xml_text(xml, "Expiration"));
  if (keys.access_key.empty() || keys.secret_key.empty() || !expires)
    return std::nullopt;
  return std::make_pair(std::move(keys), *expires);
}

std::shared_ptr<credential_source>
make_credential_source(const credentials_spec& spec,
                       const std::optional<dsl::secret_key_selector>& session_token,
                       const core::secret_store* secrets, std::string_view at,
                       std::shared_ptr<http::client> client, std::string_view sts_endpoint,
                       std::chrono::milliseconds timeout) {
  return std::make_shared<credential_source>(read_credentials(spec, session_token, secrets, at),
                                             spec.role_arn, std::move(client),
                                             make_endpoint(sts_endpoint, "sts", spec.region),
                                             timeout);
}

credential_source::credential_source(credentials keys, std::string role_arn,
                                     std::shared_ptr<http::client> client, api_endpoint sts,
                                     std::chrono::milliseconds timeout)
  : base_(std::move(keys)), role_arn_(std::move(role_arn)), client_(std::move(client)),
    sts_(std::move(sts)), timeout_(timeout) {}

void credential_source::get(completion done) {
  if (role_arn_.empty())
    return done(base_, {});
  {
    std::lock_guard lock{mutex_};
    if (std::chrono::system_clock::now() + refresh_margin < expires_)
      return done(role_keys_, {});
  }
  auto session = std::to_string(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                  std::chrono::system_clock::now().time_since_epoch())
                                  .count());
  auto request = query_request(sts_, base_, "AssumeRole", "2011-06-15",
                               {{"DurationSeconds", "900"},
                                {"RoleArn", role_arn_},
                                {"RoleSessionName", session}},
                               timeout_);
  auto shared_done = std::make_shared<completion>(std::move(done));
  auto answered = [self = shared_from_this(), shared_done](http::client_response r) {
    self->assumed(r, *shared_done);
  };
  bool submitted = false;
  if (auto client = client_.lock()) // released before `done` runs: it may be the last one
    submitted = client->submit(std::move(request), answered);
  if (!submitted)
    (*shared_done)({}, "assuming role " + role_arn_ + ": the HTTP client is saturated or shut "
                       "down");
}

void credential_source::assumed(const http::client_response& r, const completion& done) {
  auto read = r.status >= 200 && r.status <= 299 ? read_assumed_role(r.body) : std::nullopt;
  if (!read)
    return done({}, fmt::format("assuming role {} (STS AssumeRole at {}): {}", role_arn_,
                                sts_.url,
                                r.status >= 200 && r.status <= 299
                                  ? std::string("the answer holds no credentials")
                                  : describe(r)));
  {
    std::lock_guard lock{mutex_};
    role_keys_ = read->first;
    expires_ = read->second;
  }
  done(std::move(read->first), {});
}

credentials credential_source::wait() {
  std::promise<std::pair<credentials, std::string>> answer;
  auto future = answer.get_future();
  get([&answer](credentials keys, std::string error) {
    answer.set_value({std::move(keys), std::move(error)});
  });
  auto [keys, error] = future.get();
  if (!error.empty())
    throw std::runtime_error(error);
  return keys;
}

void credential_source::expire() {
  std::lock_guard lock{mutex_};
  expires_ = {};
}

} // namespace ganglion::aws
