// The `azureQueueStorage` event source: receives from one Storage queue on its own thread,
// publishes each message and deletes it once the bus accepted it.

#include <algorithm>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "client/queue_api.hpp"
#include "client/queue_xml.hpp"
#include "ganglion/azure/spec.hpp"
#include "ganglion/azure/transport.hpp"
#include "ganglion/core/event.hpp"
#include "ganglion/core/internal/log_throttle.hpp"
#include "ganglion/core/internal/publish_batch.hpp"
#include "ganglion/core/internal/source_counters.hpp"
#include "ganglion/core/internal/stoppable_thread.hpp"
#include "ganglion/core/kind_check.hpp"
#include "ganglion/core/read_secret.hpp"
#include "ganglion/http/hook_registrar.hpp"
#include "source/queue_event_data.hpp"

namespace ganglion::azure {

namespace {

using namespace detail;
using clock = std::chrono::steady_clock;

/// Argo's DequeueMessages: 10 messages at a time.
constexpr int messages_per_receive = 10;

/// Azure's rule for a queue name: 3 to 63 lower-case letters, digits and single hyphens,
/// beginning and ending with a letter or digit.
bool is_queue_name(const std::string& name) {
  if (name.size() < 3 || name.size() > 63 || name.front() == '-' || name.back() == '-'
      || name.find("--") != std::string::npos)
    return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

/// A running azureQueueStorage source: its receiving thread and what it needs.
class queue_storage_source final : public core::source {
public:
  queue_storage_source(const core::source_context& ctx, const queue_storage_source_spec& spec,
                       options opts, std::shared_ptr<http::client> requests,
                       queue_address address)
    : name_(fmt::format("azureQueueStorage source {}/{}", ctx.event_source_name,
                        ctx.event_name)),
      event_source_(ctx.event_source_name), event_name_(ctx.event_name),
      data_{spec.json_body, spec.decode_message, spec.metadata}, dlq_(spec.dlq),
      empty_wait_(std::max<std::chrono::milliseconds>(
        std::chrono::seconds(std::max<std::int64_t>(spec.wait_seconds(), 0)),
        opts.min_empty_wait)),
      opts_(opts), requests_(std::move(requests)), address_(std::move(address)), bus_(ctx.bus),
      fail_(ctx.fail),
      metrics_(ctx.metrics, ctx.event_source_name, ctx.event_name,
               {"invalid_json", "invalid_base64", "saturated", "store_failed", "stopped"}) {
    thread_.start([this] { run(); });
  }

private:
  bool stopping() const { return thread_.stopping(); }
  bool pause(std::chrono::milliseconds delay) { return thread_.pause(delay); }

  /// Get Messages and what came back: the messages, or nullopt with `error` set.
  std::optional<std::vector<queue_message>> receive(std::string& error, bool& stopped) {
    auto request = get_messages_request(address_, messages_per_receive,
                                        static_cast<int>(opts_.visibility_timeout.count()),
                                        std::chrono::system_clock::now());
    request.timeout = opts_.request_timeout;
    auto reply = http::send_and_wait(*requests_, std::move(request), [this] { return stopping(); });
    if (!reply) {
      stopped = true;
      return std::nullopt;
    }
    if (reply->status != 200) {
      error = describe_answer(*reply);
      return std::nullopt;
    }
    try {
      return parse_queue_messages(reply->body);
    } catch (const std::exception& e) {
      error = fmt::format("HTTP 200: {}", e.what());
      return std::nullopt;
    }
  }

  void run() {
    auto delay = opts_.min_retry_delay;
    std::optional<clock::time_point> failing_since;
    while (!stopping()) {
      std::string error;
      bool stopped = false;
      auto messages = receive(error, stopped);
      if (stopped)
        return;
      if (!messages) {
        auto now = clock::now();
        if (!failing_since)
          failing_since = now;
        auto down = now - *failing_since;
        if (down >= opts_.lost_after) {
          auto reason = fmt::format("{}: receiving from queue {} at {} failing for {:.1f} s: {}",
                                    name_, address_.queue, address_.account.queue_endpoint,
                                    std::chrono::duration<double>(down).count(), error);
          spdlog::error("{}", reason);
          if (fail_)
            fail_(reason); // may destroy this source: nothing of it is touched after
          return;
        }
        std::uint64_t held_back = 0;
        if (retry_log_.allow(held_back))
          spdlog::warn("{}: receiving from queue {} failed: {}; again in {} ms{}", name_,
                       address_.queue, error, delay.count(), core::held_back_note(held_back));
        if (!pause(delay))
          return;
        delay = std::min(delay * 2, opts_.max_retry_delay);
        continue;
      }
      failing_since.reset();
      delay = opts_.min_retry_delay;
      if (messages->empty()) {
        if (!pause(empty_wait_))
          return;
        continue;
      }
      deliver(std::move(*messages), clock::now());
    }
  }

  /// Publishes `messages`, deletes each the bus accepted or the filter dropped, and offers the
  /// refused ones again after a backoff while they are still invisible to other receivers.
  void deliver(std::vector<queue_message> messages, clock::time_point received_at) {
    std::vector<queue_message> unsettled;
    std::vector<core::event> events;
    for (auto& m : messages) {
      metrics_.received();
      std::string error;
      auto data = queue_event_data(m, data_, error);
      if (!data) {
        metrics_.rejected(data_.decode_message && error.rfind("failed to base64", 0) == 0
                            ? "invalid_base64"
                            : "invalid_json");
        std::uint64_t held_back = 0;
        if (invalid_log_.allow(held_back))
          spdlog::warn("{}: message {}: {}; {}{}", name_, m.id, error,
                       dlq_ ? "not deleted (dlq: the queue's poison handling takes it)"
                            : "deleted",
                       core::held_back_note(held_back));
        if (!dlq_)
          remove(m);
        continue;
      }
      events.push_back(
        core::make_event(event_source_, "azureQueueStorage", event_name_, std::move(*data)));
      unsettled.push_back(std::move(m));
    }
    // Near the end of the visibility timeout the queue hands the messages out again (here or
    // to another receiver): they are no longer offered from here.
    auto invisible_until = received_at
                           + std::chrono::duration_cast<std::chrono::milliseconds>(
                             opts_.visibility_timeout * 9 / 10);
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
        if (clock::now() + delay >= invisible_until) {
          spdlog::warn("{}: the bus refused {} message(s) until their visibility timeout; left "
                       "to the queue, which hands them out again",
                       name_, left);
          return false;
        }
        std::uint64_t held_back = 0;
        if (refused_log_.allow(held_back))
          spdlog::warn("{}: the bus refused {} message(s); offered again in {} ms{}", name_, left,
                       delay.count(), core::held_back_note(held_back));
        return pause(delay);
      },
      opts_.min_retry_delay, opts_.max_retry_delay);
  }

  /// Delete Message, not waited for; a failure is logged (the message comes back after its
  /// visibility timeout).
  void remove(const queue_message& m) {
    auto request =
      delete_message_request(address_, m.id, m.pop_receipt, std::chrono::system_clock::now());
    request.timeout = opts_.request_timeout;
    auto done = [name = name_, id = m.id](http::client_response r) {
      if (r.status < 200 || r.status > 299)
        spdlog::error("{}: deleting message {} failed: {}", name, id, describe_answer(r));
    };
    if (!requests_->submit(std::move(request), std::move(done)))
      spdlog::error("{}: deleting message {}: the HTTP client is saturated or shut down", name_,
                    m.id);
  }

  std::string name_;
  std::string event_source_;
  std::string event_name_;
  queue_data_options data_;
  bool dlq_;
  std::chrono::milliseconds empty_wait_;
  options opts_;
  std::shared_ptr<http::client> requests_;
  queue_address address_;
  std::shared_ptr<core::bus_publisher> bus_;
  std::function<void(const std::string&)> fail_;
  core::source_counters metrics_;
  core::log_throttle retry_log_;
  core::log_throttle refused_log_;
  core::log_throttle invalid_log_;
  core::stoppable_thread thread_; // last: stops before what its loop uses goes
};

std::unique_ptr<core::source> start_queue_storage_source(
  const std::shared_ptr<http::client>& requests, const options& opts,
  const core::source_context& ctx) {
  const auto& spec = core::spec_of<queue_storage_source_spec>(ctx);
  auto name =
    fmt::format("azureQueueStorage source {}/{}", ctx.event_source_name, ctx.event_name);
  if (!ctx.bus)
    throw core::source_error(name + " started without a bus");
  auto field = "azureQueueStorage." + ctx.event_name + ".connectionString";
  auto text =
    core::read_secret_or_throw<core::source_error>(ctx.secrets.get(), *spec.connection_string,
                                                   field);
  queue_address address;
  address.queue = spec.queue_name;
  try {
    address.account = parse_storage_connection_string(text);
  } catch (const std::invalid_argument& e) {
    throw core::source_error(fmt::format("{}: {}: {}", name, field, e.what()));
  }
  spdlog::info("{}: receiving from queue {} at {} ({}, wait {} s when empty)", name,
               spec.queue_name, address.account.queue_endpoint,
               address.account.shared_access_signature.empty() ? "Shared Key"
                                                               : "shared access signature",
               spec.wait_seconds());
  return std::make_unique<queue_storage_source>(ctx, spec, opts, requests, std::move(address));
}

} // namespace

std::vector<std::string> check_queue_storage_source(const core::source_context& ctx) {
  return core::check_spec<queue_storage_source_spec>(ctx, [&](const queue_storage_source_spec& s) {
    std::vector<std::string> problems;
    if (!s.connection_string && s.storage_account_name.empty())
      problems.push_back("must specify connection string or storageAccountName");
    else if (!s.connection_string)
      problems.push_back(
        "storageAccountName without connectionString is not run by ganglion: Argo then signs in "
        "with Azure AD (DefaultAzureCredential: managed identity, workload identity, the Azure "
        "CLI), which ganglion does not do; give connectionString, a secret holding the "
        "account's connection string (AccountKey or SharedAccessSignature)");
    if (s.queue_name.empty())
      problems.push_back("must specify queue name");
    else if (!is_queue_name(s.queue_name))
      problems.push_back(fmt::format(
        "queueName \"{}\" is not an Azure queue name: 3 to 63 lower-case letters, digits and "
        "single hyphens, beginning and ending with a letter or digit",
        s.queue_name));
    return problems;
  });
}

core::source_factory make_queue_storage_source_factory(std::shared_ptr<http::client> requests,
                                                       options opts) {
  return {[requests = std::move(requests), opts](const core::source_context& ctx) {
            return start_queue_storage_source(requests, opts, ctx);
          },
          check_queue_storage_source, queue_storage_source_spec_step()};
}

} // namespace ganglion::azure
