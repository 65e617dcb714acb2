#include "ganglion/http/hook_keeper.hpp"

#include <cctype>
#include <fstream>
#include <mutex>
#include <sstream>

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
  auto reply = send_and_wait(client, std::move(request));
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

  mutable std::mutex mutex;
  bool stopping = false;
  std::map<std::string, std::string> ids;
  int rounds = 0;
  /// Runs the rounds on its thread; last, so that it stops before the rest goes.
  std::unique_ptr<hook_registrar> registrar;

  /// One round over every target: the first refusal, else the first failure; none when every
  /// hook is kept.
  std::optional<registration_failure> round() {
    std::optional<registration_failure> problem;
    for (const auto& target : targets) {
      {
        std::lock_guard lock{mutex};
        if (stopping)
          return std::nullopt;
      }
      try {
        auto id = target.ensure();
        std::lock_guard lock{mutex};
        ids[target.name] = id;
      } catch (const hook_error& e) {
        spdlog::error("{}: hook of {}: {}", name, target.name, e.what());
        if (!problem || (e.refused && !problem->permanent))
          problem = registration_failure{"hook of " + target.name + ": " + e.what(), e.refused};
      } catch (const std::exception& e) {
        spdlog::error("{}: hook of {}: {}", name, target.name, e.what());
        if (!problem)
          problem = registration_failure{"hook of " + target.name + ": " + e.what(), false};
      }
    }
    if (!problem) {
      std::lock_guard lock{mutex};
      ++rounds;
    }
    return problem;
  }

  void finish() {
    {
      std::lock_guard lock{mutex};
      stopping = true;
    }
    registrar->stop();
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
  registrar_options schedule;
  schedule.recheck = options.recheck;
  schedule.first_retry = options.retry_delay;
  schedule.max_retry = options.max_retry_delay;
  schedule.first_delay = options.jitter;
  schedule.attempts = options.attempts;
  schedule.rechecks = options.rechecks;
  impl_->registrar = std::make_unique<hook_registrar>(
    [impl = impl_.get()] { return impl->round(); },
    [fail = std::move(fail), give_up = std::move(give_up)](const registration_failure& f) {
      if (f.permanent ? give_up : fail)
        (f.permanent ? give_up : fail)(f.reason);
    },
    schedule);
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
