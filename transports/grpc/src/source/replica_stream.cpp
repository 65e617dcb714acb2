#include "source/replica_stream.hpp"

#include <fmt/format.h>
#include <grpcpp/grpcpp.h>
#include <spdlog/spdlog.h>

#include "client/channel.hpp"
#include "source/event_data.hpp"
#include "proto/generic.grpc.pb.h"
#include "client/status_text.hpp"

namespace ganglion::grpc::detail {

namespace {

using clock = std::chrono::steady_clock;

/// Waits until `channel` is connected, `deadline` passes or `stopping` holds; the state then.
/// A refused connection is tried again meanwhile (channel_settings' reconnect backoff), so a
/// service that is back within the attempt's time is found.
grpc_connectivity_state wait_connected(::grpc::Channel& channel, clock::time_point deadline,
                                       const std::function<bool()>& stopping) {
  auto state = channel.GetState(true);
  while (state != GRPC_CHANNEL_READY && state != GRPC_CHANNEL_SHUTDOWN && !stopping()
         && clock::now() < deadline) {
    auto slice = std::min(deadline, clock::now() + std::chrono::milliseconds(100));
    channel.WaitForStateChange(state, std::chrono::system_clock::now() + (slice - clock::now()));
    state = channel.GetState(true);
  }
  return state;
}

const char* state_name(grpc_connectivity_state state) {
  switch (state) {
    case GRPC_CHANNEL_IDLE: return "idle";
    case GRPC_CHANNEL_CONNECTING: return "connecting";
    case GRPC_CHANNEL_READY: return "ready";
    case GRPC_CHANNEL_TRANSIENT_FAILURE: return "refused, unreachable, or the TLS handshake failed";
    case GRPC_CHANNEL_SHUTDOWN: return "shut down";
  }
  return "unknown";
}

} // namespace

replica_stream::replica_stream(std::shared_ptr<const stream_setup> setup, std::string address,
                               std::shared_ptr<bus_window> window,
                               std::shared_ptr<source_health> health,
                               std::shared_ptr<const source_metrics> metrics)
  : setup_(std::move(setup)), address_(std::move(address)), window_(std::move(window)),
    health_(std::move(health)), metrics_(std::move(metrics)) {
  thread_ = std::thread([this] { run(); });
}

replica_stream::~replica_stream() {
  stop();
  if (thread_.joinable())
    thread_.join();
}

void replica_stream::stop() {
  std::lock_guard guard{mutex_};
  stopping_ = true;
  if (call_ != nullptr)
    call_->TryCancel();
  stopped_changed_.notify_all();
}

bool replica_stream::pause(std::chrono::milliseconds delay) {
  std::unique_lock lock{mutex_};
  return !stopped_changed_.wait_for(lock, delay, [this] { return stopping_; });
}

void replica_stream::run() {
  const auto& opts = setup_->opts;
  auto backoff = opts.initial_backoff;
  for (;;) {
    auto result = attempt();
    if (result.error.empty() || health_->gave_up())
      return;
    if (result.healthy) {
      health_->succeeded();
      backoff = opts.initial_backoff;
      spdlog::warn("{}: the stream from {} ended ({}); reconnecting", setup_->name, address_,
                   result.error);
      if (!pause(std::min(opts.initial_backoff, std::chrono::milliseconds(1000))))
        return;
      continue;
    }
    metrics_->connect_failed();
    if (health_->failed(address_ + ": " + result.error))
      return;
    std::uint64_t held_back = 0;
    if (failure_log_.allow(held_back))
      spdlog::warn("{}: {}: {}; trying again in {} ms ({} failures in a row){}", setup_->name,
                   address_, result.error, backoff.count(), health_->failures(),
                   core::held_back_note(held_back));
    if (!pause(backoff))
      return;
    backoff = std::min(backoff * 2, opts.max_backoff);
  }
}

replica_stream::attempt_result replica_stream::attempt() {
  const auto& setup = *setup_;
  auto stopping = [this] {
    std::lock_guard guard{mutex_};
    return stopping_;
  };
  channel_settings settings;
  settings.target = address_;
  settings.authority = setup.authority;
  settings.tls = setup.tls;
  settings.root_pem = setup.root_pem;
  settings.server_name = setup.server_name;
  settings.max_receive_bytes = setup.opts.max_message_bytes;
  auto channel = make_channel(settings);
  auto started = clock::now();
  auto state = wait_connected(*channel, started + setup.opts.connect_timeout, stopping);
  if (stopping())
    return {};
  if (state != GRPC_CHANNEL_READY)
    return {false, fmt::format("cannot connect within {} ms ({})",
                               setup.opts.connect_timeout.count(), state_name(state))};

  ::grpc::ClientContext call;
  if (setup.auth_secret) {
    std::string error;
    auto token = setup.secrets ? setup.secrets->read(setup.auth_secret->name,
                                                     setup.auth_secret->key, &error)
                               : std::nullopt;
    if (!token)
      return {false, "authSecret: " + (error.empty() ? "no secrets store" : error)};
    call.AddMetadata("authorization", "Bearer " + *token);
  }
  generic::EventSource request;
  request.set_name(setup.event_name);
  request.set_config(setup.config);
  {
    std::lock_guard guard{mutex_};
    if (stopping_)
      return {};
    call_ = &call;
  }
  auto stub = generic::Eventing::NewStub(channel);
  auto reader = stub->StartEventSource(&call, request);
  health_->stream_opened();
  spdlog::info("{}: reading the event stream of {}", setup.name, address_);
  generic::Event message;
  bool delivered = false;
  while (reader->Read(&message)) {
    if (!delivered) {
      delivered = true;
      health_->succeeded();
    }
    if (!handle(message.payload())) {
      call.TryCancel();
      break;
    }
  }
  auto status = reader->Finish();
  health_->stream_closed();
  {
    std::lock_guard guard{mutex_};
    call_ = nullptr;
    if (stopping_)
      return {};
  }
  if (status.error_code() == ::grpc::StatusCode::RESOURCE_EXHAUSTED)
    metrics_->rejected("too_large");
  bool healthy = delivered || clock::now() - started >= setup.opts.connect_timeout;
  return {healthy, status.ok() ? std::string{"the service ended the stream"}
                               : describe_status(status)};
}

bool replica_stream::handle(const std::string& payload) {
  const auto& setup = *setup_;
  metrics_->received();
  std::uint64_t held_back = 0;
  if (payload.size() > setup.opts.max_payload_bytes) {
    metrics_->rejected("too_large");
    if (bad_payload_log_.allow(held_back))
      spdlog::error("{}: an event of {} bytes from {} dropped: larger than the limit of {} bytes{}",
                    setup.name, payload.size(), address_, setup.opts.max_payload_bytes,
                    core::held_back_note(held_back));
    return true;
  }
  std::string error;
  auto data = generic_event_data(payload, setup.json_body, setup.metadata, error);
  if (!data) {
    metrics_->rejected("invalid_json");
    if (bad_payload_log_.allow(held_back))
      spdlog::error("{}: an event from {} dropped: {} (jsonBody is set){}", setup.name, address_,
                    error, core::held_back_note(held_back));
    return true;
  }
  return window_->offer(
    core::make_event(setup.event_source, "generic", setup.event_name, std::move(*data)));
}

} // namespace ganglion::grpc::detail
