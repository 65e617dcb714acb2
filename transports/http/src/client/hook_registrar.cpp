#include "ganglion/http/hook_registrar.hpp"

#include <algorithm>
#include <future>
#include <memory>
#include <random>

namespace ganglion::http {

client_response send_and_wait(client& client, client_request request) {
  auto done = std::make_shared<std::promise<client_response>>();
  auto answer = done->get_future();
  if (!client.submit(std::move(request),
                     [done](client_response r) { done->set_value(std::move(r)); })) {
    client_response refused;
    refused.error = "the HTTP client is busy or shut down";
    return refused;
  }
  return answer.get();
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
  auto retry = options_.first_retry;
  for (;;) {
    auto failure = pass_();
    std::chrono::milliseconds wait = options_.recheck;
    if (!failure) {
      if (options_.recheck.count() <= 0)
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
