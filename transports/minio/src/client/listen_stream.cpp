#include "client/listen_stream.hpp"

#include <algorithm>
#include <memory>

#include <curl/curl.h>
#include <fmt/format.h>

namespace ganglion::minio::detail {

namespace {

constexpr const char* empty_payload_sha256 =
  "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
/// The start of an error answer kept to report it.
constexpr std::size_t max_error_body = 64 * 1024;

struct transfer {
  CURL* handle = nullptr;
  const listen_handlers* handlers = nullptr;
  const std::atomic<bool>* stop = nullptr;
  long status = 0;
  bool opened = false;
  std::string pending;
  std::string error_body;
  std::string error;
};

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* t = static_cast<transfer*>(user);
  std::string_view line{data, size * count};
  if (line == "\r\n" || line == "\n") {
    curl_easy_getinfo(t->handle, CURLINFO_RESPONSE_CODE, &t->status);
    if (t->status == 200 && !t->opened) {
      t->opened = true;
      if (t->handlers->on_open)
        t->handlers->on_open();
    }
  }
  return size * count;
}

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* t = static_cast<transfer*>(user);
  std::string_view chunk{data, size * count};
  if (t->status != 200) {
    t->error_body.append(
      chunk.substr(0, max_error_body - std::min(max_error_body, t->error_body.size())));
    return chunk.size();
  }
  t->pending.append(chunk);
  std::size_t start = 0;
  for (auto end = t->pending.find('\n'); end != std::string::npos;
       end = t->pending.find('\n', start)) {
    if (t->stop->load())
      return 0;
    auto line = std::string_view{t->pending}.substr(start, end - start);
    if (!line.empty() && line.back() == '\r')
      line.remove_suffix(1);
    t->handlers->on_line(line);
    start = end + 1;
  }
  t->pending.erase(0, start);
  if (t->pending.size() > max_line) {
    t->error = fmt::format("a notification line longer than {} bytes", max_line);
    return 0;
  }
  return chunk.size();
}

int on_progress(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
  return static_cast<transfer*>(user)->stop->load() ? 1 : 0;
}

/// The text of `<tag>…</tag>` in an S3 error body; empty when absent.
std::string xml_text(const std::string& body, const std::string& tag) {
  auto open = "<" + tag + ">";
  auto start = body.find(open);
  if (start == std::string::npos)
    return {};
  start += open.size();
  auto end = body.find("</" + tag + ">", start);
  return end == std::string::npos ? std::string{} : body.substr(start, end - start);
}

} // namespace

listen_result listen(const listen_target& target, const listen_credentials& credentials,
                     const listen_handlers& handlers, const std::atomic<bool>& stop) {
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl{curl_easy_init(), &curl_easy_cleanup};
  if (!curl)
    return {false, "cannot create a libcurl handle"};
  auto* h = curl.get();
  transfer t;
  t.handle = h;
  t.handlers = &handlers;
  t.stop = &stop;
  auto url = listen_url(target);
  auto sigv4 =
    fmt::format("aws:amz:{}:s3", credentials.region.empty() ? "us-east-1" : credentials.region);
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers{
    curl_slist_append(nullptr,
                      fmt::format("x-amz-content-sha256: {}", empty_payload_sha256).c_str()),
    &curl_slist_free_all};
  char error[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, target.insecure ? "http" : "https");
  curl_easy_setopt(h, CURLOPT_PROXY, "");
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
  curl_easy_setopt(h, CURLOPT_AWS_SIGV4, sigv4.c_str());
  curl_easy_setopt(h, CURLOPT_USERNAME, credentials.access_key.c_str());
  curl_easy_setopt(h, CURLOPT_PASSWORD, credentials.secret_key.c_str());
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
  if (!credentials.ca_pem.empty()) {
    curl_blob blob{const_cast<char*>(credentials.ca_pem.data()), credentials.ca_pem.size(),
                   CURL_BLOB_COPY};
    curl_easy_setopt(h, CURLOPT_CAINFO_BLOB, &blob);
  }
  curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, &on_header);
  curl_easy_setopt(h, CURLOPT_HEADERDATA, &t);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
  curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, &on_progress);
  curl_easy_setopt(h, CURLOPT_XFERINFODATA, &t);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
  auto rc = curl_easy_perform(h);
  listen_result out;
  out.opened = t.opened;
  if (stop.load())
    return out;
  if (!t.error.empty()) {
    out.error = t.error;
  } else if (rc != CURLE_OK) {
    out.error = error[0] ? std::string{error} : std::string{curl_easy_strerror(rc)};
  } else if (t.status != 200) {
    auto code = xml_text(t.error_body, "Code");
    auto message = xml_text(t.error_body, "Message");
    out.error = fmt::format("HTTP {}{}{}", t.status, code.empty() ? "" : " " + code,
                            message.empty() ? "" : ": " + message);
  }
  return out;
}

} // namespace ganglion::minio::detail
