#include "client/smtp_client.hpp"

#include <algorithm>
#include <cstring>
#include <memory>

#include <curl/curl.h>
#include <fmt/format.h>

namespace ganglion::email::detail {

namespace {

struct upload {
  const std::string* data;
  std::size_t offset = 0;
};

std::size_t read_upload(char* buffer, std::size_t size, std::size_t count, void* user) {
  auto* u = static_cast<upload*>(user);
  auto n = std::min(size * count, u->data->size() - u->offset);
  std::memcpy(buffer, u->data->data() + u->offset, n);
  u->offset += n;
  return n;
}

bool loopback(const std::string& host) {
  return host == "localhost" || host == "127.0.0.1" || host == "::1";
}

} // namespace

std::string send_mail(const smtp_settings& s, const std::string& sender,
                      const std::string& recipient, const std::string& message) {
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> curl{curl_easy_init(), &curl_easy_cleanup};
  if (!curl)
    return "cannot create a libcurl handle";
  bool implicit_tls = s.port == 465;
  auto host = s.host.find(':') != std::string::npos ? "[" + s.host + "]" : s.host;
  auto url = fmt::format("{}://{}:{}/localhost", implicit_tls ? "smtps" : "smtp", host, s.port);
  bool credentials = !s.username.empty();
  auto tls = credentials && !loopback(s.host) ? CURLUSESSL_ALL : CURLUSESSL_TRY;
  auto from = "<" + sender + ">";
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> rcpt{
    curl_slist_append(nullptr, ("<" + recipient + ">").c_str()), &curl_slist_free_all};
  upload body{&message};
  char error[CURL_ERROR_SIZE] = {};
  auto* h = curl.get();
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_PROTOCOLS_STR, "smtp,smtps");
  curl_easy_setopt(h, CURLOPT_USE_SSL, static_cast<long>(tls));
  if (!s.ca_file.empty())
    curl_easy_setopt(h, CURLOPT_CAINFO, s.ca_file.c_str());
  if (credentials) {
    curl_easy_setopt(h, CURLOPT_USERNAME, s.username.c_str());
    curl_easy_setopt(h, CURLOPT_PASSWORD, s.password.c_str());
  }
  curl_easy_setopt(h, CURLOPT_MAIL_FROM, from.c_str());
  curl_easy_setopt(h, CURLOPT_MAIL_RCPT, rcpt.get());
  curl_easy_setopt(h, CURLOPT_UPLOAD, 1L);
  curl_easy_setopt(h, CURLOPT_READFUNCTION, &read_upload);
  curl_easy_setopt(h, CURLOPT_READDATA, &body);
  curl_easy_setopt(h, CURLOPT_INFILESIZE_LARGE, static_cast<curl_off_t>(message.size()));
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, static_cast<long>(s.timeout.count()));
  curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
  curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(h, CURLOPT_ERRORBUFFER, error);
  auto rc = curl_easy_perform(h);
  if (rc == CURLE_OK)
    return {};
  long reply = 0;
  curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &reply);
  auto what = error[0] ? std::string{error} : std::string{curl_easy_strerror(rc)};
  if (reply != 0)
    what += fmt::format(" (SMTP {})", reply);
  return what;
}

} // namespace ganglion::email::detail
