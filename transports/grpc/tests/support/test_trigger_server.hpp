#pragma once

// A triggers.Trigger server (Argo's custom trigger protocol) inside the test process: records
// every request, and answers as the test sets it (fetched resource, failing or held Executes,
// the policy's verdict).

#include <chrono>
#include <climits>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "proto/trigger.grpc.pb.h"

namespace ganglion::test {

/// One Execute request.
struct execute_request {
  std::string resource;
  std::string payload;
};

/// A custom trigger server for tests (see file comment), on 127.0.0.1 and a free port.
class test_trigger_server final : public triggers::Trigger::Service {
public:
  /// Plaintext, or TLS with `cert_pem` and `key_pem` when given.
  explicit test_trigger_server(const std::string& cert_pem = {}, const std::string& key_pem = {}) {
    ::grpc::ServerBuilder builder;
    auto credentials = ::grpc::InsecureServerCredentials();
    if (!cert_pem.empty()) {
      ::grpc::SslServerCredentialsOptions ssl;
      ssl.pem_key_cert_pairs.push_back({key_pem, cert_pem});
      credentials = ::grpc::SslServerCredentials(ssl);
    }
    builder.AddListeningPort("127.0.0.1:0", credentials, &port_);
    builder.RegisterService(this);
    server_ = builder.BuildAndStart();
  }

  ~test_trigger_server() override { stop(); }

  /// Ends every call at once and closes the port.
  void stop() {
    {
      std::lock_guard guard{mutex_};
      hold_ = false;
    }
    changed_.notify_all();
    if (server_)
      server_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(1));
    server_.reset();
  }

  /// False when the port could not be bound.
  bool started() const { return server_ != nullptr && port_ > 0; }
  /// `127.0.0.1:<port>`
  std::string address() const { return "127.0.0.1:" + std::to_string(port_); }

  /// FetchResource returns `resource` (by default the request's resource, echoed).
  void set_fetch_reply(std::string resource) {
    std::lock_guard guard{mutex_};
    fetch_reply_ = std::move(resource);
  }
  /// FetchResource returns `reply(request's resource)` (over set_fetch_reply).
  void set_fetch_handler(std::function<std::string(const std::string&)> reply) {
    std::lock_guard guard{mutex_};
    fetch_handler_ = std::move(reply);
  }
  /// Execute returns `response`.
  void set_execute_reply(std::string response) {
    std::lock_guard guard{mutex_};
    execute_reply_ = std::move(response);
  }
  /// The next `count` Executes fail with `status` (INT_MAX: all of them).
  void fail_executes(int count, ::grpc::Status status) {
    std::lock_guard guard{mutex_};
    failures_left_ = count;
    failure_ = std::move(status);
  }
  /// Execute holds each call (until its client gives up, or release()).
  void hold_executes() {
    std::lock_guard guard{mutex_};
    hold_ = true;
  }
  void release() {
    {
      std::lock_guard guard{mutex_};
      hold_ = false;
    }
    changed_.notify_all();
  }
  /// ApplyPolicy answers `success` and `message`.
  void set_policy(bool success, std::string message) {
    std::lock_guard guard{mutex_};
    policy_success_ = success;
    policy_message_ = std::move(message);
  }

  std::vector<std::string> fetches() const {
    std::lock_guard guard{mutex_};
    return fetches_;
  }
  std::vector<execute_request> executes() const {
    std::lock_guard guard{mutex_};
    return executes_;
  }
  std::vector<std::string> policies() const {
    std::lock_guard guard{mutex_};
    return policies_;
  }

  /// Waits until `count` Executes arrived; false after `timeout`.
  bool wait_executes(std::size_t count, std::chrono::milliseconds timeout) const {
    std::unique_lock lock{mutex_};
    return changed_.wait_for(lock, timeout, [&] { return executes_.size() >= count; });
  }

  ::grpc::Status FetchResource(::grpc::ServerContext*, const triggers::FetchResourceRequest* in,
                               triggers::FetchResourceResponse* out) override {
    std::lock_guard guard{mutex_};
    fetches_.push_back(in->resource());
    out->set_resource(fetch_handler_ ? fetch_handler_(in->resource())
                      : fetch_reply_ ? *fetch_reply_
                                     : in->resource());
    return ::grpc::Status::OK;
  }

  ::grpc::Status Execute(::grpc::ServerContext* context, const triggers::ExecuteRequest* in,
                         triggers::ExecuteResponse* out) override {
    std::unique_lock lock{mutex_};
    executes_.push_back({in->resource(), in->payload()});
    changed_.notify_all();
    while (hold_ && !context->IsCancelled())
      changed_.wait_for(lock, std::chrono::milliseconds(10));
    if (failures_left_ > 0) {
      if (failures_left_ != INT_MAX)
        --failures_left_;
      return failure_;
    }
    out->set_response(execute_reply_);
    return ::grpc::Status::OK;
  }

  ::grpc::Status ApplyPolicy(::grpc::ServerContext*, const triggers::ApplyPolicyRequest* in,
                             triggers::ApplyPolicyResponse* out) override {
    std::lock_guard guard{mutex_};
    policies_.push_back(in->request());
    out->set_success(policy_success_);
    out->set_message(policy_message_);
    return ::grpc::Status::OK;
  }

private:
  mutable std::mutex mutex_;
  mutable std::condition_variable changed_;
  std::optional<std::string> fetch_reply_;
  std::function<std::string(const std::string&)> fetch_handler_;
  std::string execute_reply_ = R"({"executed":true})";
  int failures_left_ = 0;
  ::grpc::Status failure_;
  bool hold_ = false;
  bool policy_success_ = true;
  std::string policy_message_ = "ok";
  std::vector<std::string> fetches_;
  std::vector<execute_request> executes_;
  std::vector<std::string> policies_;
  int port_ = 0;
  std::unique_ptr<::grpc::Server> server_;
};

} // namespace ganglion::test
