#pragma once

// A generic.Eventing server inside the test process: the test queues payloads, the server
// sends each to one open stream, and records every stream's request, token and end.

#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <grpcpp/grpcpp.h>

#include "proto/generic.grpc.pb.h"

namespace ganglion::test {

/// How a test_signal_server serves.
struct signal_server_options {
  std::string host = "127.0.0.1";
  int port = 0;          ///< 0: a free port
  std::string token;     ///< required bearer token; empty: none
  std::string cert_pem;  ///< TLS when set (with key_pem)
  std::string key_pem;
  std::size_t max_send_bytes = 64 * 1024 * 1024;
};

/// A signal service for tests (see file comment). Stopping it (stop(), destructor) ends every
/// stream at once, as a killed service would.
class test_signal_server final : public generic::Eventing::Service {
public:
  explicit test_signal_server(signal_server_options options = {}) : options_(std::move(options)) {
    ::grpc::ServerBuilder builder;
    std::shared_ptr<::grpc::ServerCredentials> credentials = ::grpc::InsecureServerCredentials();
    if (!options_.cert_pem.empty()) {
      ::grpc::SslServerCredentialsOptions ssl;
      ssl.pem_key_cert_pairs.push_back({options_.key_pem, options_.cert_pem});
      credentials = ::grpc::SslServerCredentials(ssl);
    }
    auto address = options_.host + ":" + std::to_string(options_.port);
    builder.AddListeningPort(address, credentials, &port_);
    builder.SetMaxSendMessageSize(static_cast<int>(options_.max_send_bytes));
    builder.RegisterService(this);
    server_ = builder.BuildAndStart();
  }

  ~test_signal_server() override { stop(); }

  /// False when the port could not be bound.
  bool started() const { return server_ != nullptr && port_ > 0; }
  int port() const { return port_; }

  /// Sends `payload` on one open stream (the next one to look).
  void send(std::string payload) {
    {
      std::lock_guard guard{mutex_};
      queue_.push_back(std::move(payload));
    }
    changed_.notify_all();
  }

  /// Ends every stream and stops listening.
  void stop() {
    {
      std::lock_guard guard{mutex_};
      if (stopped_)
        return;
      stopped_ = true;
    }
    changed_.notify_all();
    if (server_)
      server_->Shutdown(std::chrono::system_clock::now());
  }

  /// What one stream asked for and how it ended.
  struct stream_record {
    std::string name;
    std::string config;
    std::string authorization;
    bool cancelled_by_client = false;
    bool ended = false;
  };

  /// Every stream so far.
  std::vector<stream_record> streams() const {
    std::lock_guard guard{mutex_};
    return streams_;
  }

  /// Streams open now.
  int open_streams() const {
    std::lock_guard guard{mutex_};
    int n = 0;
    for (const auto& s : streams_)
      n += s.ended ? 0 : 1;
    return n;
  }

  /// Payloads queued and not sent yet.
  std::size_t queued() const {
    std::lock_guard guard{mutex_};
    return queue_.size();
  }

  ::grpc::Status StartEventSource(::grpc::ServerContext* context,
                                  const generic::EventSource* request,
                                  ::grpc::ServerWriter<generic::Event>* writer) override {
    std::string authorization;
    if (auto it = context->client_metadata().find("authorization");
        it != context->client_metadata().end())
      authorization.assign(it->second.data(), it->second.size());
    std::size_t index;
    {
      std::lock_guard guard{mutex_};
      index = streams_.size();
      streams_.push_back({request->name(), request->config(), authorization});
    }
    auto finish = [&](bool cancelled) {
      std::lock_guard guard{mutex_};
      streams_[index].ended = true;
      streams_[index].cancelled_by_client = cancelled;
    };
    if (!options_.token.empty() && authorization != "Bearer " + options_.token) {
      finish(false);
      return {::grpc::StatusCode::UNAUTHENTICATED, "invalid bearer token"};
    }
    for (;;) {
      std::optional<std::string> next;
      {
        std::unique_lock lock{mutex_};
        changed_.wait_for(lock, std::chrono::milliseconds(20),
                          [&] { return stopped_ || !queue_.empty(); });
        if (stopped_) {
          lock.unlock();
          finish(false);
          return {::grpc::StatusCode::UNAVAILABLE, "stopped"};
        }
        if (!queue_.empty()) {
          next = std::move(queue_.front());
          queue_.pop_front();
        }
      }
      if (context->IsCancelled()) {
        if (next)
          requeue(std::move(*next));
        finish(true);
        return ::grpc::Status::CANCELLED;
      }
      if (!next)
        continue;
      generic::Event event;
      event.set_name("ignored");
      event.set_payload(*next);
      if (!writer->Write(event)) {
        requeue(std::move(*next));
        finish(context->IsCancelled());
        return ::grpc::Status::CANCELLED;
      }
    }
  }

private:
  void requeue(std::string payload) {
    std::lock_guard guard{mutex_};
    queue_.push_front(std::move(payload));
  }

  signal_server_options options_;
  int port_ = 0;
  std::unique_ptr<::grpc::Server> server_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  std::deque<std::string> queue_;
  std::vector<stream_record> streams_;
  bool stopped_ = false;
};

} // namespace ganglion::test
