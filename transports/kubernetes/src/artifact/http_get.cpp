#include "artifact/http_get.hpp"

#include <memory>
#include <mutex>

#include <curl/curl.h>

#include "artifact/fetchers.hpp"
#include "ganglion/core/redact.hpp"

namespace ganglion::kubernetes::detail {

namespace {

struct body_sink {
  std::string bytes;
  std::size_t limit = 0;
  bool over = false;
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto& sink = *static_cast<body_sink*>(user);
  auto n = size * count;
  if (sink.bytes.size() + n > sink.limit) {
    sink.over = true;
    return 0;
  }
  sink.bytes.append(data, n);
  return n;
}

using easy_handle = std::unique_ptr<CURL, decltype(&curl_easy_cleanup)>;
using header_list = std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)>;

} // namespace

http_got perform_get(const http_get& get, const fetch_options& options, const std::string& path,
                     const std::string& at) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  easy_handle handle{curl_easy_init(), &curl_easy_cleanup};
  if (!handle)
    throw artifact_error(at + ": cannot start an HTTP request (curl_easy_init failed)");
  auto* h = handle.get();
  header_list headers{nullptr, &curl_slist_free_all};
  for (const auto& line : get.headers)
    headers.reset(curl_slist_append(headers.release(), line.c_str()));
  body_sink sink{{}, options.max_bytes, false};
  char error[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(h, CURLOPT_URL, get.url.c_str());
  // The path goes as written: libcurl would remove `.` and `..` segments (an S3 key's
  // `../other-bucket/x` reaching another bucket).
  curl_easy_setopt(h, CURLOPT_PATH_AS_IS, 1L);
  bool https = get.url.starts_with("https://");
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, https ? "https" : "http,https");
  // Never from https down to http.
  curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, https ? "https" : "http,https");
  if (get.follow_redirects) {
    curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
    curl_easy_setopt(h, CURLOPT_MAXREDIRS, 10L);
  }
  // Argo's transports set no proxy.
  curl_easy_setopt(h, CURLOPT_PROXY, "");
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(options.timeout.count()));
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, get.verify_tls ? 1L : 0L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, get.verify_tls ? 2L : 0L);
  curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(options.max_bytes));
  if (!get.aws_sigv4.empty()) {
    curl_easy_setopt(h, CURLOPT_AWS_SIGV4, get.aws_sigv4.c_str());
    curl_easy_setopt(h, CURLOPT_USERNAME, get.username.c_str());
    curl_easy_setopt(h, CURLOPT_PASSWORD, get.password.c_str());
  }
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
  auto code = curl_easy_perform(h);
  if (sink.over || code == CURLE_FILESIZE_EXCEEDED)
    check_size(options.max_bytes + 1, options, path);
  if (code == CURLE_UNSUPPORTED_PROTOCOL && https)
    throw artifact_error(at + ": GET " + core::redact_url_userinfo(get.url)
                         + " failed: a redirect from https to another scheme is refused");
  if (code != CURLE_OK)
    throw artifact_error(
      at + ": GET " + core::redact_url_userinfo(get.url) + " failed: "
      + core::redact_url_userinfo(error[0] ? std::string{error} : curl_easy_strerror(code)));
  http_got out;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &out.status);
  out.body = std::move(sink.bytes);
  return out;
}

} // namespace ganglion::kubernetes::detail
