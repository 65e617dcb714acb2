#include "trigger/publisher.hpp"

#include <vector>

#include <fmt/format.h>

namespace ganglion::nats {

publisher::publisher(connection_settings settings, std::chrono::milliseconds flush_timeout,
                     std::size_t max_queued)
  : settings_(std::move(settings)), shown_url_(redact_url(settings_.url)),
    flush_timeout_(flush_timeout), max_queued_(max_queued), thread_([this] { run(); }) {}

publisher::~publisher() {
  {
    std::lock_guard guard{mutex_};
    stopping_ = true;
  }
  wake_.notify_all();
  thread_.join();
}

void publisher::publish(std::string subject, std::string payload, core::trigger_done done) {
  {
    std::lock_guard guard{mutex_};
    if (!stopping_ && queue_.size() < max_queued_) {
      queue_.push_back(job{std::move(subject), std::move(payload), std::move(done)});
      wake_.notify_one();
      return;
    }
  }
  done(core::trigger_outcome{
    false, fmt::format("{} messages already wait to be published to {}; try later", max_queued_,
                       shown_url_),
    {}});
}

void publisher::run() {
  std::unique_lock lock{mutex_};
  for (;;) {
    wake_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (stopping_)
      break;
    std::deque<job> batch;
    batch.swap(queue_);
    lock.unlock();
    send(batch);
    lock.lock();
  }
  auto rest = std::move(queue_);
  lock.unlock();
  for (auto& j : rest)
    j.done(core::trigger_outcome{false, "the trigger stopped before the message was published",
                                 {}});
  connection_.reset();
  nats_ReleaseThreadMemory();
}

void publisher::send(std::deque<job>& batch) {
  auto fail_all = [&batch](const std::string& error) {
    for (auto& j : batch)
      j.done(core::trigger_outcome{false, error, {}});
  };
  if (connection_ && natsConnection_IsClosed(connection_->get()))
    connection_.reset(); // closed by cnats (e.g. credentials refused): try afresh
  if (!connection_) {
    try {
      connection_ = connect(settings_);
    } catch (const connection_error& e) {
      fail_all(e.what());
      return;
    }
  }
  if (!connection_->connected()) {
    fail_all(fmt::format("not connected to the NATS server at {}: {}", shown_url_,
                         connection_->last_error()));
    return;
  }
  std::vector<std::string> errors(batch.size());
  std::size_t sent = 0;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    auto& j = batch[i];
    auto status = natsConnection_Publish(connection_->get(), j.subject.c_str(), j.payload.data(),
                                         static_cast<int>(j.payload.size()));
    if (status != NATS_OK)
      errors[i] = fmt::format("cannot publish to {}: {}", j.subject, status_text(status));
    else
      ++sent;
  }
  std::string flush_error;
  if (sent > 0) {
    auto status = natsConnection_FlushTimeout(connection_->get(), flush_timeout_.count());
    if (status != NATS_OK)
      flush_error = fmt::format("the NATS server at {} did not confirm the message within {} ms: "
                                "{}",
                                shown_url_, flush_timeout_.count(), status_text(status));
  }
  for (std::size_t i = 0; i < batch.size(); ++i) {
    auto& j = batch[i];
    if (!errors[i].empty())
      j.done(core::trigger_outcome{false, errors[i], {}});
    else if (!flush_error.empty())
      j.done(core::trigger_outcome{false, flush_error, {}});
    else
      j.done(core::trigger_outcome{true, {}, fmt::format("published to {}", j.subject)});
  }
}

} // namespace ganglion::nats
