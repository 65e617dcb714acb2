#include "ganglion/http/hook_keeper.hpp"

#include <cctype>
#include <condition_variable>
#include <fstream>
#include <future>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

namespace ganglion::http {

namespace {

/// The provider's reason in an error answer: its JSON `message` (GitHub, GitLab) or `error`,
/// else the body's start.
std::string reason_of(const std::string& body) {
  auto parsed = nlohmann::json::parse(body, nullptr, false);
  if (parsed.is_object())
    for (const char* key : {"message", "error"})
      if (auto found = parsed.find(key); found != parsed.end())
        return found->is_string()
                 ? found->get<std::string>()
                 : found->dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  return body.substr(0, 200);
}

} // namespace

client_response hook_api_client::call(std::string method, std::string url,
                                      std::vector<std::pair<std::string, std::string>> headers,
                                      std::string body) const {
  client_request request;
  request.method = std::move(method);
  request.url = std::move(url);
  request.timeout = timeout;
  request.max_response_bytes = std::size_t{4} << 20;
  request.headers = std::move(headers);
  if (!body.empty())
    request.headers.emplace_back("Content-Type", "application/json");
  request.body = std::move(body);
  if (!ca_pem.empty())
    request.tls = client_tls{ca_pem, {}, {}, false};
  return hook_call(*requests, std::move(request));
}

std::string read_ca_pem(const std::string& file) {
  if (file.empty())
    return {};
  std::ifstream in{file};
  if (!in)
    throw core::source_error("cannot read the CA file " + file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

client_response hook_call(client& client, client_request request) {
  auto what = request.method + " " + request.url;
  std::promise<client_response> answer;
  auto future = answer.get_future();
  if (!client.submit(std::move(request),
                     [&answer](client_response r) { answer.set_value(std::move(r)); }))
    throw hook_error(what + ": the HTTP client is saturated or stopped", false);
  auto reply = future.get();
  if (reply.status == 0)
    throw hook_error(what + " failed: " + reply.error, false);
  if (reply.status / 100 != 2)
    throw hook_error(what + " answered HTTP " + std::to_string(reply.status) + ": "
                       + reason_of(reply.body),
                     reply.status / 100 == 4 && reply.status != 429);
  return reply;
}

struct hook_keeper::impl {
  std::string name;
  std::vector<hook_target> targets;
  bool delete_on_finish = false;
  std::function<void(const std::string&)> fail;
  std::function<void(const std::string&)> give_up;
  hook_keeper_options options;

  mutable std::mutex mutex;
  std::condition_variable wake;
  bool stopping = false;
  std::map<std::string, std::string> ids;
  int rounds = 0;
  std::thread thread;

  /// Waits `delay` or until stopping; false when stopping.
  bool pause(std::chrono::milliseconds delay) {
    std::unique_lock lock{mutex};
    return !wake.wait_for(lock, delay, [this] { return stopping; });
  }

  /// One round over every target: the first refusal, else the first failure; empty when all
  /// hooks are kept.
  std::pair<std::string, bool> round() {
    std::pair<std::string, bool> problem;
    for (const auto& target : targets) {
      {
        std::lock_guard lock{mutex};
        if (stopping)
          return {};
      }
      try {
        auto id = target.ensure();
        std::lock_guard lock{mutex};
        ids[target.name] = id;
      } catch (const hook_error& e) {
        spdlog::error("{}: hook of {}: {}", name, target.name, e.what());
        if (problem.first.empty() || (e.refused && !problem.second))
          problem = {"hook of " + target.name + ": " + e.what(), e.refused};
      } catch (const std::exception& e) {
        spdlog::error("{}: hook of {}: {}", name, target.name, e.what());
        if (problem.first.empty())
          problem = {"hook of " + target.name + ": " + e.what(), false};
      }
    }
    return problem;
  }

  void run() {
    std::mt19937_64 random{std::random_device{}()};
    auto jitter = options.jitter.count() > 0
                    ? std::chrono::milliseconds{random() % options.jitter.count()}
                    : std::chrono::milliseconds{0};
    if (!pause(jitter))
      return;
    int failures = 0;
    auto delay = options.retry_delay;
    for (int done = 0; options.rechecks < 0 || done <= options.rechecks;) {
      auto [problem, refused] = round();
      if (problem.empty()) {
        {
          std::lock_guard lock{mutex};
          if (stopping)
            return;
          ++rounds;
        }
        ++done;
        failures = 0;
        delay = options.retry_delay;
        if (!pause(options.recheck))
          return;
        continue;
      }
      if (refused) {
        if (give_up)
          give_up(problem);
        return;
      }
      if (++failures >= options.attempts) {
        if (fail)
          fail(problem);
        return;
      }
      if (!pause(delay))
        return;
      delay = std::min(delay * 2, options.max_retry_delay);
    }
  }

  void finish() {
    {
      std::lock_guard lock{mutex};
      stopping = true;
    }
    wake.notify_all();
    if (thread.joinable())
      thread.join();
    if (!delete_on_finish)
      return;
    for (const auto& target : targets) {
      auto found = ids.find(target.name);
      if (found == ids.end())
        continue;
      try {
        target.remove(found->second);
        spdlog::info("{}: hook {} of {} deleted", name, found->second, target.name);
      } catch (const std::exception& e) {
        spdlog::error("{}: cannot delete hook {} of {}: {}", name, found->second, target.name,
                      e.what());
      }
    }
  }
};

hook_keeper::hook_keeper(std::string log_name, std::vector<hook_target> targets,
                         bool delete_on_finish, std::function<void(const std::string&)> fail,
                         std::function<void(const std::string&)> give_up,
                         hook_keeper_options options)
  : impl_(std::make_shared<impl>()) {
  impl_->name = std::move(log_name);
  impl_->targets = std::move(targets);
  impl_->delete_on_finish = delete_on_finish;
  impl_->fail = std::move(fail);
  impl_->give_up = std::move(give_up);
  impl_->options = options;
  impl_->thread = std::thread([impl = impl_.get()] { impl->run(); });
}

hook_keeper::~hook_keeper() {
  impl_->finish();
}

std::map<std::string, std::string> hook_keeper::hooks() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->ids;
}

int hook_keeper::rounds() const {
  std::lock_guard lock{impl_->mutex};
  return impl_->rounds;
}

} // namespace ganglion::http
