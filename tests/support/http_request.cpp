#include "http_request.hpp"

#include <memory>
#include <thread>

#include <curl/curl.h>

namespace ganglion::test {

namespace {

std::size_t append(char* data, std::size_t size, std::size_t count, void* out) {
  static_cast<std::string*>(out)->append(data, size * count);
  return size * count;
}

struct curl_global {
  curl_global() { curl_global_init(CURL_GLOBAL_DEFAULT); }
};

} // namespace

http_response http_request(const std::string& method, const std::string& url,
                           const std::string& body, const std::vector<std::string>& headers) {
  static curl_global init;
  http_response result;
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> easy{curl_easy_init(), curl_easy_cleanup};
  if (!easy) {
    result.error = "curl_easy_init failed";
    return result;
  }
  curl_slist* list = nullptr;
  for (const auto& h : headers)
    list = curl_slist_append(list, h.c_str());
  // No "Expect: 100-continue" round trip unless a test asks for it.
  list = curl_slist_append(list, "Expect:");
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> header_list{list,
                                                                          curl_slist_free_all};
  char error[CURL_ERROR_SIZE] = {};
  CURL* h = easy.get();
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 10000L);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, append);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &result.body);
  curl_easy_setopt(h, CURLOPT_HTTPHEADER, header_list.get());
  if (method == "GET" && body.empty()) {
    curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
  } else if (method == "HEAD") {
    curl_easy_setopt(h, CURLOPT_NOBODY, 1L);
  } else {
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(body.size()));
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.data());
    if (method != "POST")
      curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, method.c_str());
  }
  CURLcode rc = curl_easy_perform(h);
  if (rc != CURLE_OK) {
    result.error = error[0] != '\0' ? error : curl_easy_strerror(rc);
    return result;
  }
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &result.status);
  return result;
}

bool wait_http_ok(const std::string& url, std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (http_request("GET", url).status == 200)
      return true;
    if (std::chrono::steady_clock::now() >= deadline)
      return false;
    std::this_thread::sleep_for(std::chrono::milliseconds{50});
  }
}

} // namespace ganglion::test
