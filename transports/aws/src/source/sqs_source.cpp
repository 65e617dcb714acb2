// The `sqs` event source: long-polls one queue on its own thread, publishes each message and
// deletes it once the bus accepted it.

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/credential_source.hpp"
#include "client/sqs_api.hpp"
#include "ganglion/aws/transport.hpp"
#include "ganglion/core/event.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/core/internal/publish_batch.hpp"
#include "ganglion/core/internal/source_counters.hpp"
#include "ganglion/core/kind_check.hpp"
#include "source/event_data.hpp"

namespace ganglion::aws {

namespace {

using json = nlohmann::json;

/// A message received and its event.
struct delivery {
  std::string receipt_handle;
  std::string message_id;
  core::event event;
};

/// A running sqs source: its polling thread and what it needs.
class sqs_source final : public core::source {
public:
  sqs_source(const core::source_context& ctx, sqs_spec spec, options opts,
             std::shared_ptr<http::client> requests, api_endpoint api,
             std::shared_ptr<credential_source> keys, std::string queue_url)
    : name_(fmt::format("sqs source {}/{}", ctx.event_source_name, ctx.event_name)),
      at_("sqs." + ctx.event_name), event_source_(ctx.event_source_name),
      event_name_(ctx.event_name), spec_(std::move(spec)), opts_(opts),
      requests_(std::move(requests)), api_(std::move(api)), keys_(std::move(keys)),
      queue_url_(std::move(queue_url)), bus_(ctx.bus), secrets_(ctx.secrets), fail_(ctx.fail),
      metrics_(ctx.metrics, ctx.event_source_name, ctx.event_name) {
    thread_ = std::thread([this] { run(); });
  }

  ~sqs_source() override {
    {
      std::lock_guard guard{mutex_};
      stopping_ = true;
    }
    stop_changed_.notify_all();
    if (!thread_.joinable())
      return;
    if (thread_.get_id() == std::this_thread::get_id())
      thread_.detach(); // destroyed from its own fail callback: the thread touches nothing after
    else
      thread_.join();
  }

private:
  bool stopping() const { return stopping_.load(); }

  /// Waits `delay` unless stopping; false when stopping.
  bool pause(std::chrono::milliseconds delay) {
    std::unique_lock lock{mutex_};
    return !stop_changed_.wait_for(lock, delay, [this] { return stopping_.load(); });
  }

  std::chrono::milliseconds receive_timeout() const {
    return std::chrono::seconds(spec_.wait_seconds()) + opts_.request_timeout;
  }

  void run() {
    auto delay = opts_.min_retry_delay;
    std::optional<std::chrono::steady_clock::time_point> failing_since;
    while (!stopping()) {
      std::optional<http::client_response> reply;
      json body;
      try {
        reply = call(*requests_,
                     sqs_request(api_, keys_->wait(), "ReceiveMessage",
                                 receive_message_input(queue_url_, spec_.wait_seconds()),
                                 receive_timeout()),
                     [this] { return stopping(); });
        if (!reply)
          return;
        body = reply_object(*reply);
      } catch (const std::exception& e) {
        if (!failing_since)
          failing_since = std::chrono::steady_clock::now();
        auto down = std::chrono::steady_clock::now() - *failing_since;
        if (down >= opts_.lost_after) {
          auto reason = fmt::format("{}: ReceiveMessage on {} failing for {:.1f} s: {}", name_,
                                    queue_url_,
                                    std::chrono::duration<double>(down).count(), e.what());
          spdlog::error("{}", reason);
          if (fail_)
            fail_(reason); // may destroy this source: nothing of it is touched after
          return;
        }
        std::uint64_t held_back = 0;
        if (retry_log_.allow(held_back))
          spdlog::warn("{}: ReceiveMessage on {} failed: {}; again in {} ms{}", name_, queue_url_,
                       e.what(), delay.count(), core::held_back_note(held_back));
        if (reply && read_error(*reply).code == "ExpiredToken")
          refresh_credentials();
        if (!pause(delay))
          return;
        delay = std::min(delay * 2, opts_.max_retry_delay);
        continue;
      }
      failing_since.reset();
      delay = opts_.min_retry_delay;
      if (body.contains("Messages") && body["Messages"].is_array() && !body["Messages"].empty())
        deliver(body["Messages"]);
    }
  }

  /// Reads the secrets again (Argo does on ExpiredToken with a session token), or assumes the
  /// role again.
  void refresh_credentials() {
    if (!spec_.session_token && !keys_->assumes_role())
      return;
    try {
      keys_ = make_credential_source(spec_, spec_.session_token, secrets_.get(), at_, requests_,
                                     opts_.endpoint, opts_.request_timeout);
      spdlog::info("{}: credentials expired, read them again", name_);
    } catch (const std::exception& e) {
      spdlog::error("{}: reading the credentials again: {}", name_, e.what());
    }
  }

  /// Publishes `messages`, deletes each the bus accepted or the filter dropped, and offers the
  /// refused ones again after a backoff until the bus takes them or the source stops.
  void deliver(const json& messages) {
    std::vector<delivery> unsettled;
    for (const auto& m : messages) {
      metrics_.received();
      delivery d{m.value("ReceiptHandle", ""), m.value("MessageId", ""), {}};
      std::string error;
      auto data = sqs_event_data(m, spec_.json_body, spec_.metadata, error);
      if (!data) {
        metrics_.rejected("invalid_json");
        spdlog::warn("{}: message {}: {}; {}", name_, d.message_id, error,
                     spec_.dlq ? "not deleted (dlq: it goes to the dead-letter queue)"
                               : "deleted");
        if (!spec_.dlq)
          remove(d);
        continue;
      }
      d.event = core::make_event(event_source_, "sqs", event_name_, std::move(*data));
      unsettled.push_back(std::move(d));
    }
    std::vector<core::event> events;
    for (const auto& d : unsettled)
      events.push_back(d.event);
    core::offer_until_settled(
      *bus_, std::move(events), [this] { return stopping(); },
      [&](std::size_t i, core::publish_status status) {
        if (status == core::publish_status::accepted || status == core::publish_status::filtered) {
          if (status == core::publish_status::accepted)
            metrics_.accepted();
          remove(unsettled[i]);
        } else {
          metrics_.rejected(core::to_string(status));
        }
      },
      [&](std::size_t left, std::chrono::milliseconds delay) {
        std::uint64_t held_back = 0;
        if (refused_log_.allow(held_back))
          spdlog::warn("{}: the bus refused {} message(s); offered again in {} ms{}", name_, left,
                       delay.count(), core::held_back_note(held_back));
        return pause(delay);
      },
      opts_.min_retry_delay, opts_.max_retry_delay);
  }

  /// DeleteMessage, not waited for; a failure is logged (the message comes back after the
  /// visibility timeout).
  void remove(const delivery& d) {
    credentials keys;
    try {
      keys = keys_->wait();
    } catch (const std::exception& e) {
      spdlog::error("{}: deleting message {}: {}", name_, d.message_id, e.what());
      return;
    }
    auto request = sqs_request(api_, keys, "DeleteMessage",
                               delete_message_input(queue_url_, d.receipt_handle),
                               opts_.request_timeout);
    auto done = [name = name_, id = d.message_id](http::client_response r) {
      if (r.status < 200 || r.status > 299)
        spdlog::error("{}: deleting message {} failed: {}", name, id, describe(r));
    };
    if (!requests_->submit(std::move(request), std::move(done)))
      spdlog::error("{}: deleting message {}: the HTTP client is saturated or shut down", name_,
                    d.message_id);
  }

  std::string name_;
  std::string at_;
  std::string event_source_;
  std::string event_name_;
  sqs_spec spec_;
  options opts_;
  std::shared_ptr<http::client> requests_;
  api_endpoint api_;
  std::shared_ptr<credential_source> keys_; ///< replaced only on the polling thread
  std::string queue_url_;
  std::shared_ptr<core::bus_publisher> bus_;
  std::shared_ptr<const core::secret_store> secrets_;
  std::function<void(const std::string&)> fail_;
  core::message_source_counters metrics_;
  core::log_throttle retry_log_;
  core::log_throttle refused_log_;
  std::atomic<bool> stopping_{false};
  std::mutex mutex_;
  std::condition_variable stop_changed_;
  std::thread thread_;
};

std::unique_ptr<core::source> start_sqs_source(const std::shared_ptr<http::client>& requests,
                                               const options& opts,
                                               const core::source_context& ctx) {
  const auto& spec = core::spec_of<sqs_spec>(ctx);
  auto name = fmt::format("sqs source {}/{}", ctx.event_source_name, ctx.event_name);
  if (!ctx.bus)
    throw core::source_error(name + " started without a bus");
  auto api = make_endpoint(spec.endpoint, "sqs", spec.region);
  std::shared_ptr<credential_source> keys;
  std::optional<http::client_response> reply;
  try {
    keys = make_credential_source(spec, spec.session_token, ctx.secrets.get(),
                                  "sqs." + ctx.event_name, requests, opts.endpoint,
                                  opts.request_timeout);
    reply = call(*requests,
                 sqs_request(api, keys->wait(), "GetQueueUrl",
                             get_queue_url_input(spec.queue, spec.queue_account_id),
                             opts.request_timeout),
                 {});
  } catch (const std::exception& e) {
    throw core::source_error(fmt::format("{}: {}", name, e.what()));
  }
  std::string queue_url;
  try {
    auto body = reply_object(*reply);
    queue_url = body.value("QueueUrl", "");
    if (queue_url.empty())
      throw std::runtime_error("the reply has no QueueUrl");
  } catch (const std::exception& e) {
    throw core::source_error(fmt::format("{}: getting the URL of queue {} from {}: {}", name,
                                         spec.queue, api.url, e.what()));
  }
  spdlog::info("{}: polling {} ({}, wait {} s)", name, queue_url, api.url, spec.wait_seconds());
  return std::make_unique<sqs_source>(ctx, spec, opts, requests, std::move(api),
                                      std::move(keys), std::move(queue_url));
}

} // namespace

std::vector<std::string> check_sqs_source(const core::source_context& ctx) {
  return core::check_spec<sqs_spec>(ctx, [&](const sqs_spec& spec) {
    std::vector<std::string> problems;
    auto name = fmt::format("sqs source {}/{}", ctx.event_source_name, ctx.event_name);
    if (spec.region.empty())
      problems.push_back(name + ": must specify region");
    if (spec.queue.empty())
      problems.push_back(name + ": must specify queue name");
    return problems;
  });
}

core::source_factory make_sqs_source_factory(std::shared_ptr<http::client> requests,
                                             options opts) {
  return {[requests = std::move(requests), opts](const core::source_context& ctx) {
            return start_sqs_source(requests, opts, ctx);
          },
          check_sqs_source, sqs_spec_step()};
}

} // namespace ganglion::aws
