#include "ganglion/http/client.hpp"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <deque>
#include <map>
#include <mutex>
#include <string_view>
#include <thread>
#include <vector>

#include <curl/curl.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

namespace ganglion::http {

namespace {

constexpr const char* shut_down_error = "HTTP client shut down";


void global_init() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

bool has_line_break(const std::string& s) {
  return s.find_first_of("\r\n") != std::string::npos;
}

/// One request on its way through the multi handle.
struct transfer {
  client_request request;
  client_completion done;
  CURL* easy = nullptr;
  curl_slist* headers = nullptr;
  client_response result;
  char error[CURL_ERROR_SIZE] = {};
  /// The body went past request.max_response_bytes and the transfer was aborted.
  bool too_large = false;

  ~transfer() {
    if (easy)
      curl_easy_cleanup(easy);
    curl_slist_free_all(headers);
  }

  void complete() {
    if (!done)
      return;
    try {
      done(std::move(result));
    } catch (const std::exception& e) {
      spdlog::error("HTTP client completion for {} threw: {}", request.url, e.what());
    }
    done = nullptr;
  }
};

std::size_t append_body(char* data, std::size_t size, std::size_t count, void* out) {
  auto& t = *static_cast<transfer*>(out);
  const auto n = size * count;
  if (n > t.request.max_response_bytes - std::min(t.result.body.size(),
                                                  t.request.max_response_bytes)) {
    t.too_large = true;
    return 0; // curl aborts with CURLE_WRITE_ERROR
  }
  t.result.body.append(data, n);
  return n;
}

bool same_name(std::string_view a, std::string_view b) {
  return a.size() == b.size()
      && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x))
               == std::tolower(static_cast<unsigned char>(y));
         });
}

/// Keeps the headers `response_headers` asks for; `out` is the transfer.
std::size_t keep_header(char* data, std::size_t size, std::size_t count, void* out) {
  auto& t = *static_cast<transfer*>(out);
  std::string_view line{data, size * count};
  if (line.starts_with("HTTP/")) {
    t.result.headers.clear();
    return size * count;
  }
  auto colon = line.find(':');
  if (colon == std::string_view::npos)
    return size * count;
  auto name = line.substr(0, colon);
  for (const auto& wanted : t.request.response_headers) {
    if (!same_name(name, wanted))
      continue;
    auto value = line.substr(colon + 1);
    auto first = value.find_first_not_of(" \t");
    auto last = value.find_last_not_of(" \t\r\n");
    value = first == std::string_view::npos ? std::string_view{}
                                            : value.substr(first, last - first + 1);
    t.result.headers.emplace_back(std::string(name), std::string(value));
    break;
  }
  return size * count;
}

void set_blob(CURL* easy, CURLoption option, const std::string& pem) {
  curl_blob blob{const_cast<char*>(pem.data()), pem.size(), CURL_BLOB_COPY};
  curl_easy_setopt(easy, option, &blob);
}

/// Configures the (fresh or reset) easy handle of `t`; returns an error message when the
/// request is invalid.
std::string prepare(transfer& t) {
  auto& r = t.request;
  if (r.basic_auth && !r.aws_sigv4.empty())
    return "a request is signed with basic_auth or aws_sigv4, not both";
  for (const auto& [name, value] : r.headers) {
    if (name.empty() || has_line_break(name) || has_line_break(value) ||
        name.find(':') != std::string::npos)
      return "invalid HTTP header '" + name + "'";
    auto line = name + ": " + value;
    t.headers = curl_slist_append(t.headers, line.c_str());
  }
  t.headers = curl_slist_append(t.headers, "Expect:");
  CURL* e = t.easy;
  curl_easy_setopt(e, CURLOPT_PRIVATE, &t);
  curl_easy_setopt(e, CURLOPT_URL, r.url.c_str());
  curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
  curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(e, CURLOPT_TIMEOUT_MS,
                   static_cast<long>(std::max<std::int64_t>(1, r.timeout.count())));
  curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t.error);
  curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, append_body);
  curl_easy_setopt(e, CURLOPT_WRITEDATA, &t);
  curl_easy_setopt(e, CURLOPT_HTTPHEADER, t.headers);
  if (!r.response_headers.empty()) {
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, keep_header);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, &t);
  }
  curl_easy_setopt(e, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(e, CURLOPT_MAXREDIRS, 10L);
  if (r.method == "GET" && r.body.empty()) {
    curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
  } else if (r.method == "HEAD") {
    curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
  } else {
    curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(r.body.size()));
    curl_easy_setopt(e, CURLOPT_POSTFIELDS, r.body.data());
    if (r.method != "POST")
      curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, r.method.c_str());
  }
  if (r.basic_auth) {
    curl_easy_setopt(e, CURLOPT_HTTPAUTH, CURLAUTH_BASIC);
    curl_easy_setopt(e, CURLOPT_USERNAME, r.basic_auth->first.c_str());
    curl_easy_setopt(e, CURLOPT_PASSWORD, r.basic_auth->second.c_str());
  }
  if (!r.aws_sigv4.empty()) {
    curl_easy_setopt(e, CURLOPT_AWS_SIGV4, r.aws_sigv4.c_str());
    curl_easy_setopt(e, CURLOPT_USERNAME, r.aws_credentials.first.c_str());
    curl_easy_setopt(e, CURLOPT_PASSWORD, r.aws_credentials.second.c_str());
  }
  if (r.tls) {
    if (!r.tls->ca_certificate_pem.empty())
      set_blob(e, CURLOPT_CAINFO_BLOB, r.tls->ca_certificate_pem);
    if (!r.tls->client_certificate_pem.empty()) {
      set_blob(e, CURLOPT_SSLCERT_BLOB, r.tls->client_certificate_pem);
      curl_easy_setopt(e, CURLOPT_SSLCERTTYPE, "PEM");
    }
    if (!r.tls->client_key_pem.empty()) {
      set_blob(e, CURLOPT_SSLKEY_BLOB, r.tls->client_key_pem);
      curl_easy_setopt(e, CURLOPT_SSLKEYTYPE, "PEM");
    }
    if (r.tls->insecure_skip_verify) {
      curl_easy_setopt(e, CURLOPT_SSL_VERIFYPEER, 0L);
      curl_easy_setopt(e, CURLOPT_SSL_VERIFYHOST, 0L);
    }
  }
  return {};
}

} // namespace

struct client::impl {
  explicit impl(client_options opts) : options(opts) {
    global_init();
    multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, options.max_host_connections);
    curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, options.max_total_connections);
  }

  ~impl() {
    for (CURL* easy : idle_easy)
      curl_easy_cleanup(easy);
    curl_multi_cleanup(multi);
  }

  /// An easy handle from the idle pool (reset), or a new one.
  CURL* take_easy() {
    if (idle_easy.empty())
      return curl_easy_init();
    CURL* easy = idle_easy.back();
    idle_easy.pop_back();
    return easy;
  }

  /// Keeps a finished transfer's easy handle for the next request (curl_easy_init allocates
  /// and initialises several KB per request otherwise); connections stay in the multi handle.
  void recycle(transfer& t) {
    constexpr std::size_t idle_limit = 256;
    if (idle_easy.size() < idle_limit) {
      curl_easy_reset(t.easy);
      idle_easy.push_back(t.easy);
    } else {
      curl_easy_cleanup(t.easy);
    }
    t.easy = nullptr;
  }

  void start(std::unique_ptr<transfer> t) {
    t->easy = take_easy();
    auto error = t->easy ? prepare(*t) : std::string("curl_easy_init failed");
    if (error.empty() && curl_multi_add_handle(multi, t->easy) != CURLM_OK)
      error = "curl_multi_add_handle failed";
    if (!error.empty()) {
      t->result.error = std::move(error);
      finish(std::move(t));
      return;
    }
    CURL* key = t->easy;
    active.emplace(key, std::move(t));
  }

  void finish(std::unique_ptr<transfer> t) {
    pending.fetch_sub(1);
    t->complete();
  }

  void collect() {
    int left = 0;
    while (CURLMsg* msg = curl_multi_info_read(multi, &left)) {
      if (msg->msg != CURLMSG_DONE)
        continue;
      auto i = active.find(msg->easy_handle);
      if (i == active.end())
        continue;
      auto t = std::move(i->second);
      active.erase(i);
      CURLcode code = msg->data.result;
      curl_multi_remove_handle(multi, t->easy);
      if (code == CURLE_OK) {
        curl_easy_getinfo(t->easy, CURLINFO_RESPONSE_CODE, &t->result.status);
      } else {
        t->result.status = 0;
        t->result.body.clear();
        t->result.headers.clear();
        t->result.error =
          t->too_large ? fmt::format("response body larger than {} bytes",
                                     t->request.max_response_bytes)
          : t->error[0] != '\0' ? t->error
                                : curl_easy_strerror(code);
      }
      recycle(*t);
      finish(std::move(t));
    }
  }

  void fail_everything(std::deque<std::unique_ptr<transfer>>& queued) {
    for (auto& [easy, t] : active) {
      curl_multi_remove_handle(multi, easy);
      t->result = client_response{0, {}, shut_down_error, {}};
      finish(std::move(t));
    }
    active.clear();
    for (auto& t : queued) {
      t->result = client_response{0, {}, shut_down_error, {}};
      finish(std::move(t));
    }
    queued.clear();
  }

  void run() {
    std::deque<std::unique_ptr<transfer>> incoming;
    for (;;) {
      bool stop = false;
      {
        std::lock_guard guard{mutex};
        incoming.swap(queue);
        stop = stopping;
      }
      if (stop) {
        fail_everything(incoming);
        // Requests that raced with the stop flag.
        std::lock_guard guard{mutex};
        for (auto& t : queue) {
          t->result = client_response{0, {}, shut_down_error, {}};
          finish(std::move(t));
        }
        queue.clear();
        return;
      }
      for (auto& t : incoming)
        start(std::move(t));
      incoming.clear();
      int running = 0;
      curl_multi_perform(multi, &running);
      collect();
      curl_multi_poll(multi, nullptr, 0, 1000, nullptr);
    }
  }

  client_options options;
  CURLM* multi = nullptr;
  std::thread thread;
  std::mutex mutex;
  std::deque<std::unique_ptr<transfer>> queue;
  bool stopping = false;
  std::atomic<std::size_t> pending{0};
  std::map<CURL*, std::unique_ptr<transfer>> active;
  /// Reset easy handles ready for reuse (client thread only).
  std::vector<CURL*> idle_easy;
};

client::client(client_options options) : impl_(std::make_unique<impl>(options)) {
  impl_->thread = std::thread([this] { impl_->run(); });
}

client::~client() {
  shutdown();
}

bool client::submit(client_request request, client_completion done) {
  auto t = std::make_unique<transfer>();
  t->request = std::move(request);
  t->done = std::move(done);
  {
    std::lock_guard guard{impl_->mutex};
    if (impl_->stopping || impl_->pending.load() >= impl_->options.max_in_flight)
      return false;
    impl_->pending.fetch_add(1);
    impl_->queue.push_back(std::move(t));
  }
  curl_multi_wakeup(impl_->multi);
  return true;
}

std::size_t client::in_flight() const noexcept {
  return impl_->pending.load();
}

void client::shutdown() {
  {
    std::lock_guard guard{impl_->mutex};
    impl_->stopping = true;
  }
  curl_multi_wakeup(impl_->multi);
  if (impl_->thread.joinable() && impl_->thread.get_id() != std::this_thread::get_id())
    impl_->thread.join();
}

} // namespace ganglion::http
