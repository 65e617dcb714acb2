#include "ganglion/http/hook_registrar.hpp"

#include <algorithm>
#include <cctype>
#include <future>
#include <memory>
#include <random>

namespace ganglion::http {

std::optional<client_response> send_and_wait(client& client, client_request request,
                                             const std::function<bool()>& stopping) {
  auto done = std::make_shared<std::promise<client_response>>();
  auto answer = done->get_future();
  if (!client.submit(std::move(request),
                     [done](client_response r) { done->set_value(std::move(r)); })) {
    client_response refused;
    refused.error = "the HTTP client is busy or shut down";
    return refused;
  }
  while (answer.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready)
    if (stopping && stopping())
      return std::nullopt;
  return answer.get();
}

client_response send_and_wait(client& client, client_request request) {
  return *send_and_wait(client, std::move(request), {});
}

api_answer call_api(client& client, client_request request, std::string_view provider) {
  auto what = request.method + " " + request.url;
  auto r = send_and_wait(client, std::move(request));
  api_answer out{r.status, {}, std::move(r.body)};
  if (r.status == 0)
    out.error = what + ": " + r.error;
  else if (r.status < 200 || r.status > 299)
    out.error = what + ": " + std::string(provider) + " answered " + std::to_string(r.status) + ": "
                + out.body.substr(0, 200);
  return out;
}

namespace {

/// `text` with the bytes other than letters, digits and `kept` as `%XX`, a space as `+` when
/// `plus`.
std::string percent_escape(std::string_view text, std::string_view kept, bool plus) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || kept.find(static_cast<char>(c)) != std::string_view::npos) {
      out += static_cast<char>(c);
    } else if (plus && c == ' ') {
      out += '+';
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

} // namespace

std::string query_escape(std::string_view text) {
  return percent_escape(text, "-_.~", true);
}

std::string path_escape(std::string_view text) {
  return percent_escape(text, "-_.~$&+=:@", false);
}

std::string formatted_url(std::string url, const std::string& endpoint) {
  while (!url.empty() && url.back() == '/')
    url.pop_back();
  return url + (endpoint.rfind('/', 0) == 0 ? endpoint : "/" + endpoint);
}

hook_registrar::hook_registrar(registration_pass pass,
                               std::function<void(const registration_failure&)> fail,
                               registrar_options options)
  : pass_(std::move(pass)), fail_(std::move(fail)), options_(options), thread_([this] { run(); }) {}

hook_registrar::~hook_registrar() {
  stop();
}

void hook_registrar::stop() {
  {
    std::lock_guard lock{mutex_};
    stopping_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable() && thread_.get_id() != std::this_thread::get_id())
    thread_.join();
}

void hook_registrar::run() {
  if (options_.first_delay.count() > 0) {
    std::uniform_int_distribution<std::int64_t> pick(0, options_.first_delay.count() - 1);
    std::random_device seed;
    std::unique_lock lock{mutex_};
    if (wake_.wait_for(lock, std::chrono::milliseconds{pick(seed)}, [this] { return stopping_; }))
      return;
  }
  int failures = 0;
  int rechecks = 0;
  auto retry = options_.first_retry;
  for (;;) {
    auto failure = pass_();
    std::chrono::milliseconds wait = options_.recheck;
    if (!failure) {
      if (options_.recheck.count() <= 0
          || (options_.rechecks >= 0 && rechecks++ >= options_.rechecks))
        return;
      failures = 0;
      retry = options_.first_retry;
    } else if (failure->permanent || ++failures >= std::max(1, options_.attempts)) {
      fail_(*failure);
      return;
    } else {
      wait = retry;
      retry = std::min(retry * 2, options_.max_retry);
    }
    std::unique_lock lock{mutex_};
    if (wake_.wait_for(lock, wait, [this] { return stopping_; }))
      return;
  }
}

} // namespace ganglion::http
