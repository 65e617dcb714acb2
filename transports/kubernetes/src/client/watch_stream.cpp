#include <algorithm>
#include <functional>
#include <optional>
#include <random>

#include <curl/curl.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "client/request_metrics.hpp"
#include "client/token_source.hpp"
#include "client/watch_impl.hpp"

namespace ganglion::kubernetes {

namespace {

using nlohmann::json;
using namespace std::chrono_literals;

/// Longest error body kept from a refused watch.
constexpr std::size_t error_body_limit = std::size_t{64} * 1024;
/// Longest watch event line (objects in etcd are at most 1.5 MiB by default).
constexpr std::size_t line_limit = std::size_t{64} * 1024 * 1024;

/// One watch request on its way.
struct stream {
  const std::atomic<bool>* stop;
  /// The watcher's line handler: false ends the stream.
  std::function<bool(std::string_view line, watch_end& end, std::string& error)> on_line;
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;
  long status = 0;
  /// A partial line (status 200), else the error body.
  std::string buffer{};
  bool received = false;
  std::optional<watch_end> end{};
  std::string error{};
  char curl_error[CURL_ERROR_SIZE] = {};

  ~stream() {
    if (easy)
      curl_easy_cleanup(easy);
    curl_slist_free_all(headers);
  }
};

std::size_t on_data(char* data, std::size_t size, std::size_t count, void* user) {
  auto& s = *static_cast<stream*>(user);
  auto n = size * count;
  if (s.status == 0)
    curl_easy_getinfo(s.easy, CURLINFO_RESPONSE_CODE, &s.status);
  if (s.status != 200) {
    auto room = error_body_limit > s.buffer.size() ? error_body_limit - s.buffer.size() : 0;
    s.buffer.append(data, std::min(n, room));
    return n;
  }
  s.received = true;
  s.buffer.append(data, n);
  std::size_t start = 0;
  for (auto newline = s.buffer.find('\n'); newline != std::string::npos;
       newline = s.buffer.find('\n', start)) {
    std::string_view line{s.buffer.data() + start, newline - start};
    start = newline + 1;
    watch_end end{};
    if (!s.on_line(line, end, s.error)) {
      s.end = end;
      return 0;
    }
  }
  s.buffer.erase(0, start);
  if (s.buffer.size() > line_limit) {
    s.error = "a watch event longer than " + std::to_string(line_limit) + " bytes";
    s.end = watch_end::failed;
    return 0;
  }
  return n;
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return *static_cast<stream*>(user)->stop ? 1 : 0;
}

std::string string_at(const json& object, const char* key) {
  if (!object.is_object())
    return {};
  auto i = object.find(key);
  return i != object.end() && i->is_string() ? i->get<std::string>() : std::string();
}

void set_blob(CURL* easy, CURLoption option, const std::string& pem) {
  curl_blob blob{const_cast<char*>(pem.data()), pem.size(), CURL_BLOB_COPY};
  curl_easy_setopt(easy, option, &blob);
}

/// The server's `timeoutSeconds`: between 5 and 10 minutes, as client-go picks it, so that
/// the watches of many clients do not end together.
long watch_seconds() {
  static thread_local std::mt19937 random{std::random_device{}()};
  return std::uniform_int_distribution<long>(300, 600)(random);
}

/// Sets up `s.easy` for a watch of `path`; false when libcurl cannot.
bool prepare(stream& s, const watch_client_parts& parts, const std::string& path,
             long server_timeout) {
  const auto& config = *parts.config;
  s.easy = curl_easy_init();
  if (!s.easy)
    return false;
  CURL* e = s.easy;
  auto url = config.server + path;
  curl_easy_setopt(e, CURLOPT_URL, url.c_str());
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, s.curl_error);
  curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(parts.request_timeout.count()));
  // The server ends the stream after timeoutSeconds; this is for one that does not.
  curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, (server_timeout + 30) * 1000L);
  curl_easy_setopt(e, CURLOPT_TCP_KEEPALIVE, 1L);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, on_data);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, &s);
  curl_easy_setopt(e, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(e, CURLOPT_XFERINFOFUNCTION, on_progress);
  curl_easy_setopt(e, CURLOPT_XFERINFODATA, &s);
  s.headers = curl_slist_append(s.headers, "Accept: application/json");
  s.headers = curl_slist_append(s.headers, "User-Agent: ganglion");
  if (!parts.impersonate_user.empty())
    s.headers =
      curl_slist_append(s.headers, ("Impersonate-User: " + parts.impersonate_user).c_str());
  auto token = parts.token->current();
  if (!token.empty())
    s.headers = curl_slist_append(s.headers, ("Authorization: Bearer " + token).c_str());
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, s.headers);
  if (!config.username.empty() || !config.password.empty()) {
    curl_easy_setopt(e, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
    curl_easy_setopt(e, CURLOPT_USERNAME, config.username.c_str());
    curl_easy_setopt(e, CURLOPT_PASSWORD, config.password.c_str());
  }
  if (!config.ca_pem.empty())
    set_blob(e, CURLOPT_CAINFO_BLOB, config.ca_pem);
  if (!config.client_certificate_pem.empty()) {
    set_blob(e, CURLOPT_SSLCERT_BLOB, config.client_certificate_pem);
    curl_easy_setopt(e, CURLOPT_SSLCERTTYPE, "PEM");
    set_blob(e, CURLOPT_SSLKEY_BLOB, config.client_key_pem);
    curl_easy_setopt(e, CURLOPT_SSLKEYTYPE, "PEM");
  }
  if (config.insecure_skip_tls_verify) {
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
    curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
  }
  return true;
}

/// Runs `s` on `multi` until it ends or the watcher stops; the transfer's result.
CURLcode perform(CURLM* multi, stream& s) {
  if (curl_multi_add_handle(multi, s.easy) != CURLM_OK)
    return CURLE_FAILED_INIT;
  CURLcode result = CURLE_OK;
  for (bool done = false; !done && !*s.stop;) {
    int running = 0;
    curl_multi_perform(multi, &running);
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi, &left)) {
      if (msg->msg == CURLMSG_DONE) {
        result = msg->data.result;
        done = true;
      }
    }
    if (!done)
      curl_multi_poll(multi, nullptr, 0, 1000, nullptr);
  }
  curl_multi_remove_handle(multi, s.easy);
  return result;
}

} // namespace

watch_end watcher::impl::watch(std::string& error, bool& received) {
  auto seconds = watch_seconds();
  auto path = url_path("watch=1&resourceVersion=" + version()
                       + "&allowWatchBookmarks=true&timeoutSeconds=" + std::to_string(seconds));
  stream s{&stop, [this](std::string_view line, watch_end& end, std::string& why) {
             return on_line(line, end, why);
           }};
  if (!prepare(s, parts, path, seconds)) {
    error = "curl_easy_init failed";
    return watch_end::failed;
  }
  auto result = perform(static_cast<CURLM*>(multi), s);
  received = s.received;
  if (s.status == 0)
    curl_easy_getinfo(s.easy, CURLINFO_RESPONSE_CODE, &s.status);
  curl_off_t first_byte_us = 0;
  curl_easy_getinfo(s.easy, CURLINFO_STARTTRANSFER_TIME_T, &first_byte_us);
  parts.metrics->record("WATCH", s.status, std::chrono::microseconds(first_byte_us));
  if (stop)
    return watch_end::stopped;
  if (s.end) {
    error = s.error;
    return *s.end;
  }
  if (s.status == 410)
    return watch_end::expired;
  if (s.status == 401)
    parts.token->reload();
  if (s.status != 0 && s.status != 200) {
    error = api_response{s.status, s.buffer, {}}.message();
    return watch_end::failed;
  }
  if (result != CURLE_OK) {
    error = s.curl_error[0] != '\0' ? s.curl_error : curl_easy_strerror(result);
    return result == CURLE_OPERATION_TIMEDOUT && s.status == 200 ? watch_end::closed
                                                                 : watch_end::failed;
  }
  return watch_end::closed;
}

bool watcher::impl::on_line(std::string_view line, watch_end& end, std::string& error) {
  if (!line.empty() && line.back() == '\r')
    line.remove_suffix(1);
  if (line.empty())
    return true;
  auto event = json::parse(line, nullptr, false);
  if (!event.is_object() || !event.contains("object")) {
    error = "not a watch event: " + std::string(line.substr(0, 200));
    end = watch_end::failed;
    return false;
  }
  auto type = string_at(event, "type");
  auto& object = event["object"];
  if (type == "ERROR") {
    auto code = object.is_object() && object.contains("code") && object["code"].is_number_integer()
                  ? object["code"].get<long>()
                  : 0L;
    if (code == 410) {
      end = watch_end::expired;
      return false;
    }
    error = "ERROR event: " + api_response{code == 0 ? 500 : code, object.dump(), {}}.message();
    end = watch_end::failed;
    return false;
  }
  auto metadata = object.is_object() ? object.find("metadata") : object.end();
  if (metadata != object.end())
    set_version(string_at(*metadata, "resourceVersion"));
  if (type == "BOOKMARK")
    return true;
  if (type != "ADDED" && type != "MODIFIED" && type != "DELETED") {
    spdlog::warn("kubernetes watch {}: ignoring an event of type '{}'", collection, type);
    return true;
  }
  if (handlers.on_event) {
    watch_event change{std::move(type), object.dump()};
    try {
      handlers.on_event(change);
    } catch (const std::exception& e) {
      spdlog::error("kubernetes watch {}: a handler threw: {}", collection, e.what());
    }
  }
  return true;
}

} // namespace ganglion::kubernetes
