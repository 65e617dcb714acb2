#include "stripe_api.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include "s3/sigv4.hpp"

namespace ganglion::test {

namespace {

constexpr std::string_view collection = "/v1/webhook_endpoints";

/// application/x-www-form-urlencoded pairs, decoded, in order.
std::vector<std::pair<std::string, std::string>> parse_form(const std::string& text) {
  auto decode = [](std::string s) {
    std::replace(s.begin(), s.end(), '+', ' ');
    return s3::percent_decode(s);
  };
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t from = 0;
  while (from < text.size()) {
    auto amp = std::min(text.find('&', from), text.size());
    auto pair = text.substr(from, amp - from);
    auto eq = pair.find('=');
    out.emplace_back(decode(pair.substr(0, eq)),
                     eq == std::string::npos ? "" : decode(pair.substr(eq + 1)));
    from = amp + 1;
  }
  return out;
}

sink_answer json_answer(int status, const nlohmann::json& body) {
  sink_answer out;
  out.status = status;
  out.body = body.dump();
  out.content_type = "application/json";
  return out;
}

sink_answer error_answer(int status, const std::string& message, const std::string& param = {}) {
  nlohmann::json e{{"message", message}, {"type", "invalid_request_error"}};
  if (!param.empty())
    e["param"] = param;
  return json_answer(status, nlohmann::json{{"error", e}});
}

nlohmann::json describe(const stripe_endpoint& e, bool with_secret) {
  nlohmann::json j{{"id", e.id},           {"object", "webhook_endpoint"}, {"url", e.url},
                   {"enabled_events", e.enabled_events}, {"status", "enabled"},
                   {"livemode", false},    {"api_version", nullptr}};
  if (with_secret)
    j["secret"] = e.secret;
  return j;
}

} // namespace

std::string stripe_signature(const std::string& secret, const std::string& body, std::int64_t t) {
  auto payload = std::to_string(t) + "." + body;
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int size = 0;
  HMAC(EVP_sha256(), secret.data(), static_cast<int>(secret.size()),
       reinterpret_cast<const unsigned char*>(payload.data()), payload.size(), mac, &size);
  std::string out = "t=" + std::to_string(t) + ",v1=";
  for (unsigned int i = 0; i < size; ++i)
    out += fmt::format("{:02x}", mac[i]);
  return out;
}

struct stripe_api::impl {
  std::string authorization;
  mutable std::mutex mutex;
  std::vector<stripe_endpoint> stored;
  int next = 1;
  std::atomic<bool> down{false};
  http_sink sink{200}; ///< last: stopped before the state its handler reads goes

  sink_answer answer(const recorded_request& r) {
    if (down)
      return error_answer(503, "service unavailable");
    if (r.header("Authorization") != authorization)
      return error_answer(401, "Invalid API Key provided: sk_test_***");
    std::string_view target = r.target;
    auto query_at = target.find('?');
    auto path = target.substr(0, query_at);
    std::lock_guard lock{mutex};
    if (path == collection && r.method == "GET")
      return list(query_at == std::string_view::npos ? "" : std::string(target.substr(query_at + 1)));
    if (r.method != "POST" || path.substr(0, collection.size()) != collection)
      return error_answer(404, "Unrecognized request URL");
    std::vector<std::string> events;
    std::string url;
    for (const auto& [key, value] : parse_form(r.body)) {
      if (key.rfind("enabled_events[", 0) == 0)
        events.push_back(value);
      else if (key == "url")
        url = value;
    }
    if (path == collection) {
      if (url.empty())
        return error_answer(400, "Missing required param: url.", "url");
      if (events.empty())
        return error_answer(400, "Missing required param: enabled_events.", "enabled_events");
      stored.push_back({"we_" + std::to_string(next), url, events,
                        "whsec_test" + std::to_string(next)});
      ++next;
      return json_answer(200, describe(stored.back(), true));
    }
    auto id = std::string(path.substr(collection.size() + 1));
    for (auto& e : stored)
      if (e.id == id) {
        if (!events.empty())
          e.enabled_events = events;
        return json_answer(200, describe(e, false));
      }
    return error_answer(404, "No such webhook endpoint: '" + id + "'", "id");
  }

  sink_answer list(const std::string& query) {
    std::size_t limit = 10;
    std::string after;
    for (const auto& [key, value] : parse_form(query)) {
      if (key == "limit")
        limit = std::stoul(value);
      else if (key == "starting_after")
        after = value;
    }
    std::size_t from = 0;
    if (!after.empty()) {
      while (from < stored.size() && stored[from].id != after)
        ++from;
      if (from == stored.size())
        return error_answer(400, "No such webhook endpoint: '" + after + "'", "starting_after");
      ++from;
    }
    auto data = nlohmann::json::array();
    for (auto i = from; i < stored.size() && data.size() < limit; ++i)
      data.push_back(describe(stored[i], false));
    bool more = from + data.size() < stored.size();
    nlohmann::json page{
      {"object", "list"}, {"data", data}, {"has_more", more}, {"url", collection}};
    return json_answer(200, page);
  }
};

stripe_api::stripe_api(std::string key) : impl_(std::make_unique<impl>()) {
  impl_->authorization = "Bearer " + key;
  impl_->sink.set_handler(
    [state = impl_.get()](const recorded_request& r) { return state->answer(r); });
}

stripe_api::~stripe_api() = default;

std::string stripe_api::base_url() const {
  return impl_->sink.url("");
}

std::vector<recorded_request> stripe_api::requests() const {
  return impl_->sink.requests();
}

std::vector<stripe_endpoint> stripe_api::endpoints() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->stored;
}

std::string stripe_api::put_endpoint(const std::string& url,
                                     std::vector<std::string> enabled_events) {
  std::lock_guard lock{impl_->mutex};
  auto id = "we_" + std::to_string(impl_->next++);
  impl_->stored.push_back({id, url, std::move(enabled_events), "whsec_unknown"});
  return id;
}

void stripe_api::set_down(bool down) {
  impl_->down = down;
}

} // namespace ganglion::test
