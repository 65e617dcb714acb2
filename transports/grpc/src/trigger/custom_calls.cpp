#include "trigger/custom_calls.hpp"

#include <array>
#include <condition_variable>
#include <mutex>
#include <set>

#include <fmt/format.h>
#include <grpcpp/client_context.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "proto/trigger.grpc.pb.h"
#include "client/status_text.hpp"

namespace ganglion::grpc::detail {

namespace {

/// Largest Execute response shown in an outcome's `result`.
constexpr std::size_t max_shown_response = 64 * 1024;

enum call_index { fetch_call, execute_call, policy_call };

constexpr std::array<const char*, 3> call_names{"FetchResource", "Execute", "ApplyPolicy"};

} // namespace

class custom_execution;

struct custom_calls::shared {
  custom_call_site site;
  std::unique_ptr<triggers::Trigger::Stub> stub;
  std::mutex mutex;
  std::condition_variable ended;
  std::set<std::shared_ptr<custom_execution>> running;
  /// Executions not destroyed yet (their ClientContexts hold the channel).
  std::size_t alive = 0;
  bool stopping = false;
};

/// The executions' shared state, counting one execution in `alive` until it is destroyed: the
/// first member of the execution, so the last to go.
class alive_mark {
public:
  explicit alive_mark(std::shared_ptr<custom_calls::shared> shared) : shared_(std::move(shared)) {
    std::lock_guard guard{shared_->mutex};
    ++shared_->alive;
  }
  ~alive_mark() {
    {
      std::lock_guard guard{shared_->mutex};
      --shared_->alive;
    }
    shared_->ended.notify_all();
  }
  alive_mark(const alive_mark&) = delete;
  alive_mark& operator=(const alive_mark&) = delete;

  custom_calls::shared* operator->() const { return shared_.get(); }

private:
  std::shared_ptr<custom_calls::shared> shared_;
};

/// One execution: its requests, responses and the context of each call live here until the
/// last callback.
class custom_execution final : public std::enable_shared_from_this<custom_execution> {
public:
  custom_execution(std::shared_ptr<custom_calls::shared> shared, custom_call_plan plan,
                   core::trigger_done done)
    : shared_(std::move(shared)), plan_(std::move(plan)), done_(std::move(done)) {}

  custom_execution(const custom_execution&) = delete;
  custom_execution& operator=(const custom_execution&) = delete;

  void start() {
    {
      std::lock_guard guard{shared_->mutex};
      if (!shared_->stopping)
        shared_->running.insert(shared_from_this());
      else
        stopped_ = true;
    }
    if (stopped_) {
      done_({false, shared_->site.name + ": the trigger stopped before this execution", {}});
      return;
    }
    fetch();
  }

  /// Cancels the call in flight; the next one is not started.
  void cancel() {
    std::lock_guard guard{mutex_};
    cancelled_ = true;
    for (auto& context : contexts_)
      if (context)
        context->TryCancel();
  }

private:
  void fetch() {
    fetch_request_.set_resource(std::move(plan_.resource));
    auto* context = next_context(fetch_call);
    if (!context)
      return;
    shared_->stub->async()->FetchResource(
      context, &fetch_request_, &fetch_response_,
      [self = shared_from_this()](::grpc::Status status) { self->fetched(status); });
  }

  void fetched(const ::grpc::Status& status) {
    if (!status.ok())
      return fail(fetch_call, status);
    std::string resource = std::move(*fetch_response_.mutable_resource());
    if (plan_.prepare) {
      try {
        resource = plan_.prepare(std::move(resource));
      } catch (const std::exception& e) {
        return finish({false, fmt::format("{}: {}", shared_->site.name, e.what()), {}});
      }
    }
    execute_request_.set_resource(std::move(resource));
    execute_request_.set_payload(std::move(plan_.payload));
    auto* context = next_context(execute_call);
    if (!context)
      return;
    shared_->stub->async()->Execute(
      context, &execute_request_, &execute_response_,
      [self = shared_from_this()](::grpc::Status status) { self->executed(status); });
  }

  void executed(const ::grpc::Status& status) {
    if (!status.ok())
      return fail(execute_call, status);
    policy_request_.set_request(execute_response_.response());
    auto* context = next_context(policy_call);
    if (!context)
      return;
    shared_->stub->async()->ApplyPolicy(
      context, &policy_request_, &policy_response_,
      [self = shared_from_this()](::grpc::Status status) { self->judged(status); });
  }

  void judged(const ::grpc::Status& status) {
    if (!status.ok())
      return fail(policy_call, status);
    if (!policy_response_.success())
      spdlog::warn("{}: ApplyPolicy on {} answered success=false ({}); the execution counts as "
                   "a success, as in Argo",
                   shared_->site.name, shared_->site.server, policy_response_.message());
    finish(custom_outcome(execute_response_.response(), policy_response_.success(),
                          policy_response_.message()));
  }

  /// The context of call `index`, with its deadline; null (the execution ended) when the
  /// trigger is stopping.
  ::grpc::ClientContext* next_context(call_index index) {
    {
      std::lock_guard guard{mutex_};
      if (!cancelled_) {
        contexts_[index] = std::make_unique<::grpc::ClientContext>();
        contexts_[index]->set_deadline(std::chrono::system_clock::now() + shared_->site.timeout);
        return contexts_[index].get();
      }
    }
    finish({false,
            fmt::format("{}: the trigger stopped before {}", shared_->site.name, call_names[index]),
            {}});
    return nullptr;
  }

  void fail(call_index index, const ::grpc::Status& status) {
    finish({false,
            fmt::format("{}: {} on {} failed: {}", shared_->site.name, call_names[index],
                        shared_->site.server, describe_status(status)),
            {}});
  }

  void finish(core::trigger_outcome outcome) {
    done_(std::move(outcome));
    auto self = shared_from_this();
    std::lock_guard guard{shared_->mutex};
    shared_->running.erase(self);
    shared_->ended.notify_all();
  }

  alive_mark shared_;
  custom_call_plan plan_;
  core::trigger_done done_;
  bool stopped_ = false;
  std::mutex mutex_;
  bool cancelled_ = false;
  std::array<std::unique_ptr<::grpc::ClientContext>, 3> contexts_;
  triggers::FetchResourceRequest fetch_request_;
  triggers::FetchResourceResponse fetch_response_;
  triggers::ExecuteRequest execute_request_;
  triggers::ExecuteResponse execute_response_;
  triggers::ApplyPolicyRequest policy_request_;
  triggers::ApplyPolicyResponse policy_response_;
};

custom_calls::custom_calls(custom_call_site site) : shared_(std::make_shared<shared>()) {
  shared_->stub = triggers::Trigger::NewStub(site.channel);
  shared_->site = std::move(site);
}

custom_calls::~custom_calls() {
  std::unique_lock lock{shared_->mutex};
  shared_->stopping = true;
  auto running = shared_->running;
  lock.unlock();
  for (const auto& e : running)
    e->cancel();
  running.clear();
  lock.lock();
  shared_->ended.wait(lock, [&] { return shared_->alive == 0; });
  lock.unlock();
  // The last references to the channel go here, never on a gRPC thread: gRPC 1.51 destroys a
  // channel's callback completion queue with the channel and joins the threads that run its
  // callbacks, the caller's included.
  shared_->stub.reset();
  shared_->site.channel.reset();
}

void custom_calls::start(custom_call_plan plan, core::trigger_done done) {
  std::make_shared<custom_execution>(shared_, std::move(plan), std::move(done))->start();
}

core::trigger_outcome custom_outcome(const std::string& response, bool success,
                                     const std::string& message) {
  nlohmann::ordered_json result;
  if (response.size() > max_shown_response) {
    result["responseBytes"] = response.size();
  } else {
    auto parsed = nlohmann::ordered_json::parse(response, nullptr, false);
    result["response"] = parsed.is_discarded() ? nlohmann::ordered_json(response) : parsed;
  }
  result["policy"] = {{"success", success}, {"message", message}};
  core::trigger_outcome outcome;
  outcome.ok = true;
  outcome.detail = fmt::format("Execute OK, policy success={}", success);
  outcome.result = result.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
  return outcome;
}

} // namespace ganglion::grpc::detail
