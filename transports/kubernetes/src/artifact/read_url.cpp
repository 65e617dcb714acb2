#include <memory>
#include <mutex>

#include <curl/curl.h>

#include "ganglion/dsl/kind/yaml_path.hpp"
#include "artifact/fetchers.hpp"

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

} // namespace

std::string read_url_artifact(const url_artifact& url, const fetch_options& options,
                              const std::string& path) {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  auto at = dsl::detail::child_path(path, "path");
  easy_handle handle{curl_easy_init(), &curl_easy_cleanup};
  if (!handle)
    throw artifact_error(at + ": cannot start an HTTP request (curl_easy_init failed)");
  auto* h = handle.get();
  body_sink sink{{}, options.max_bytes, false};
  char error[CURL_ERROR_SIZE] = {};
  curl_easy_setopt(h, CURLOPT_URL, url.path.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(h, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  // Go's http.Client: up to 10 redirects; Argo's transport sets no proxy.
  curl_easy_setopt(h, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(h, CURLOPT_MAXREDIRS, 10L);
  curl_easy_setopt(h, CURLOPT_PROXY, "");
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(options.timeout.count()));
  curl_easy_setopt(h, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYPEER, url.verify_cert ? 1L : 0L);
  curl_easy_setopt(h, CURLOPT_SSL_VERIFYHOST, url.verify_cert ? 2L : 0L);
  curl_easy_setopt(h, CURLOPT_MAXFILESIZE_LARGE, static_cast<curl_off_t>(options.max_bytes));
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, &on_body);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
  auto code = curl_easy_perform(h);
  if (sink.over || code == CURLE_FILESIZE_EXCEEDED)
    check_size(options.max_bytes + 1, options, path);
  if (code != CURLE_OK)
    throw artifact_error(at + ": GET " + url.path + " failed: "
                         + (error[0] ? std::string{error} : curl_easy_strerror(code)));
  long status = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
  if (status != 200)
    throw artifact_error(at + ": GET " + url.path + " answered HTTP " + std::to_string(status)
                         + " (200 is required)");
  return std::move(sink.bytes);
}

} // namespace ganglion::kubernetes::detail
