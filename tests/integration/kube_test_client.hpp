#pragma once

// A libcurl client for the tests of the test Kubernetes API server: keep-alive requests with
// TLS options, and a watch stream read on its own thread.

#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <curl/curl.h>

#include "eventually.hpp"
#include "kube/api_server.hpp"

namespace ganglion::test::kube {

/// How a kube_client connects.
struct client_setup {
  /// Trusted CA (PEM); none: curl's default store.
  std::string ca_pem{};
  std::string token{};
  std::optional<client_credentials> certificate{};
};

/// A response; `status` 0 and `error` set when none arrived.
struct client_reply {
  long status = 0;
  std::string body;
  std::string error;
  std::map<std::string, std::string> headers; ///< names lowercased
  long new_connections = 0;

  json object() const { return json::parse(body, nullptr, false); }
};

namespace detail {

inline std::size_t append_body(char* data, std::size_t size, std::size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

inline std::size_t append_header(char* data, std::size_t size, std::size_t count, void* out) {
  std::string line(data, size * count);
  auto colon = line.find(':');
  if (colon != std::string::npos) {
    std::string name = line.substr(0, colon);
    for (auto& c : name)
      c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    auto value = line.substr(colon + 1);
    value.erase(0, value.find_first_not_of(' '));
    value.erase(value.find_last_not_of("\r\n") + 1);
    (*static_cast<std::map<std::string, std::string>*>(out))[name] = value;
  }
  return size * count;
}

inline void configure(CURL* curl, const client_setup& setup, curl_slist*& headers) {
  if (!setup.ca_pem.empty()) {
    curl_blob ca{const_cast<char*>(setup.ca_pem.data()), setup.ca_pem.size(), CURL_BLOB_COPY};
    curl_easy_setopt(curl, CURLOPT_CAINFO_BLOB, &ca);
  }
  if (setup.certificate) {
    curl_blob cert{const_cast<char*>(setup.certificate->certificate_pem.data()),
                   setup.certificate->certificate_pem.size(), CURL_BLOB_COPY};
    curl_blob key{const_cast<char*>(setup.certificate->key_pem.data()),
                  setup.certificate->key_pem.size(), CURL_BLOB_COPY};
    curl_easy_setopt(curl, CURLOPT_SSLCERT_BLOB, &cert);
    curl_easy_setopt(curl, CURLOPT_SSLCERTTYPE, "PEM");
    curl_easy_setopt(curl, CURLOPT_SSLKEY_BLOB, &key);
    curl_easy_setopt(curl, CURLOPT_SSLKEYTYPE, "PEM");
  }
  if (!setup.token.empty())
    headers = curl_slist_append(headers, ("Authorization: Bearer " + setup.token).c_str());
}

} // namespace detail

/// Blocking requests to one server over one keep-alive connection (10 s timeout each).
class kube_client {
public:
  kube_client(std::string base_url, client_setup setup = {})
    : base_(std::move(base_url)), setup_(std::move(setup)), curl_(curl_easy_init()) {}
  ~kube_client() { curl_easy_cleanup(curl_); }
  kube_client(const kube_client&) = delete;
  kube_client& operator=(const kube_client&) = delete;

  /// `method` `path` with `body` of `content_type`; an `Accept` header when `accept` is given.
  client_reply request(const std::string& method, const std::string& path,
                       const std::string& body = {},
                       const std::string& content_type = "application/json",
                       const std::string& accept = {}) {
    client_reply reply;
    curl_slist* headers = nullptr;
    curl_easy_reset(curl_);
    detail::configure(curl_, setup_, headers);
    if (!accept.empty())
      headers = curl_slist_append(headers, ("Accept: " + accept).c_str());
    if (!body.empty() || method != "GET")
      headers = curl_slist_append(headers, ("Content-Type: " + content_type).c_str());
    curl_easy_setopt(curl_, CURLOPT_URL, (base_ + path).c_str());
    curl_easy_setopt(curl_, CURLOPT_CUSTOMREQUEST, method.c_str());
    if (method != "GET" && method != "DELETE") {
      curl_easy_setopt(curl_, CURLOPT_POSTFIELDS, body.c_str());
      curl_easy_setopt(curl_, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
    }
    curl_easy_setopt(curl_, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl_, CURLOPT_TIMEOUT_MS, 10000L);
    curl_easy_setopt(curl_, CURLOPT_WRITEFUNCTION, detail::append_body);
    curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &reply.body);
    curl_easy_setopt(curl_, CURLOPT_HEADERFUNCTION, detail::append_header);
    curl_easy_setopt(curl_, CURLOPT_HEADERDATA, &reply.headers);
    CURLcode code = curl_easy_perform(curl_);
    if (code == CURLE_OK) {
      curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &reply.status);
      curl_easy_getinfo(curl_, CURLINFO_NUM_CONNECTS, &reply.new_connections);
    } else {
      reply.error = curl_easy_strerror(code);
    }
    curl_slist_free_all(headers);
    return reply;
  }
  client_reply get(const std::string& path) { return request("GET", path); }
  client_reply post(const std::string& path, const json& body) {
    return request("POST", path, body.dump());
  }
  client_reply put(const std::string& path, const json& body) {
    return request("PUT", path, body.dump());
  }
  client_reply patch(const std::string& path, const std::string& body,
                     const std::string& content_type) {
    return request("PATCH", path, body, content_type);
  }
  client_reply remove(const std::string& path) { return request("DELETE", path); }

private:
  std::string base_;
  client_setup setup_;
  CURL* curl_;
};

/// A watch stream (`GET path`), read line by line on its own thread until the server ends it
/// or this is destroyed.
class watch_stream {
public:
  watch_stream(const std::string& url, client_setup setup = {})
    : setup_(std::move(setup)), thread_([this, url] { run(url); }) {}
  ~watch_stream() {
    stop_ = true;
    thread_.join();
  }
  watch_stream(const watch_stream&) = delete;
  watch_stream& operator=(const watch_stream&) = delete;

  /// The events (parsed lines) received so far.
  std::vector<json> events() const {
    std::lock_guard guard{mutex_};
    return events_;
  }
  /// Waits until `count` events arrived; false after 10 s.
  bool wait_for(std::size_t count) const {
    return eventually([&] { return events().size() >= count; });
  }
  /// Waits until the server ended the stream; false after 10 s.
  bool wait_ended() const {
    return eventually([&] { return ended_.load(); });
  }
  long status() const { return status_; }

private:
  static std::size_t on_data(char* data, std::size_t size, std::size_t count, void* self_ptr) {
    auto* self = static_cast<watch_stream*>(self_ptr);
    std::lock_guard guard{self->mutex_};
    self->partial_.append(data, size * count);
    std::size_t newline;
    while ((newline = self->partial_.find('\n')) != std::string::npos) {
      self->events_.push_back(json::parse(self->partial_.substr(0, newline), nullptr, false));
      self->partial_.erase(0, newline + 1);
    }
    return size * count;
  }
  static int on_progress(void* self_ptr, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    return static_cast<watch_stream*>(self_ptr)->stop_ ? 1 : 0;
  }

  void run(const std::string& url) {
    CURL* curl = curl_easy_init();
    curl_slist* headers = nullptr;
    detail::configure(curl, setup_, headers);
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_data);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, this);
    curl_easy_setopt(curl, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, on_progress);
    curl_easy_setopt(curl, CURLOPT_XFERINFODATA, this);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, 20000L);
    curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    status_ = status;
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    ended_ = true;
  }

  client_setup setup_;
  mutable std::mutex mutex_;
  std::vector<json> events_;
  std::string partial_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> ended_{false};
  std::atomic<long> status_{0};
  std::thread thread_;
};

} // namespace ganglion::test::kube
