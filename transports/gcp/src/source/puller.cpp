#include "source/puller.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <spdlog/spdlog.h>

#include "ganglion/core/event.hpp"
#include "ganglion/core/internal/publish_batch.hpp"
#include "ganglion/dsl/go/codec.hpp"

namespace ganglion::gcp::detail {

namespace {

/// 4xx other than 408 and 429: trying again will not help (the subscription was deleted,
/// the permission revoked): the source fails at once.
bool permanent(const api_error& e) {
  return e.status >= 400 && e.status < 500 && e.status != 408 && e.status != 429;
}

} // namespace

puller::puller(puller_target target, const options& opts, const core::source_counters& metrics,
               std::function<std::unique_ptr<api>(std::function<bool()>)> make_api)
  : target_(std::move(target)), opts_(opts), metrics_(metrics),
    api_(make_api([this] { return stopping(); })), error_log_(std::chrono::seconds(30)),
    refused_log_(std::chrono::seconds(30)) {
  thread_ = std::thread([this] { run(); });
}

puller::~puller() {
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

bool puller::pause(std::chrono::milliseconds delay) {
  std::unique_lock lock{mutex_};
  return !stop_changed_.wait_for(lock, delay, [this] { return stopping_.load(); });
}

void puller::run() {
  auto retry = opts_.min_retry_delay;
  std::optional<std::chrono::steady_clock::time_point> failing_since;
  while (!stopping()) {
    try {
      if (!pull_once(retry))
        return;
      failing_since.reset();
      continue;
    } catch (const api_error& e) {
      if (stopping())
        return;
      auto now = std::chrono::steady_clock::now();
      if (!failing_since)
        failing_since = now;
      auto down = now - *failing_since;
      if (permanent(e) || down >= opts_.lost_after) {
        auto reason = permanent(e)
                        ? fmt::format("{}: {}", target_.name, e.what())
                        : fmt::format("{}: Pub/Sub failing for {:.1f} s: {}", target_.name,
                                      std::chrono::duration<double>(down).count(), e.what());
        spdlog::error("{}", reason);
        if (target_.fail)
          target_.fail(reason);
        return;
      }
      std::uint64_t held_back = 0;
      if (error_log_.allow(held_back))
        spdlog::warn("{}: {}; retrying{}", target_.name, e.what(), core::held_back_note(held_back));
    }
    if (!pause(retry))
      return;
    retry = std::min(retry * 2, opts_.max_retry_delay);
  }
}

std::vector<received_message> puller::parse(const std::string& body) {
  std::vector<received_message> out;
  auto j = nlohmann::json::parse(body, nullptr, false);
  if (!j.is_object())
    throw api_error(fmt::format(":pull answered no JSON object"), 200, {});
  auto list = j.find("receivedMessages");
  if (list == j.end() || !list->is_array())
    return out;
  auto text = [](const nlohmann::json& o, const char* key) {
    auto i = o.find(key);
    return i != o.end() && i->is_string() ? i->get<std::string>() : std::string{};
  };
  for (const auto& r : *list) {
    if (!r.is_object())
      continue;
    received_message m;
    m.ack_id = text(r, "ackId");
    auto msg = r.find("message");
    if (m.ack_id.empty() || msg == r.end() || !msg->is_object())
      continue;
    m.id = text(*msg, "messageId");
    m.publish_time = text(*msg, "publishTime");
    auto decoded = dsl::base64_decode(text(*msg, "data"));
    m.data = std::move(decoded.bytes);
    if (auto a = msg->find("attributes"); a != msg->end() && a->is_object())
      for (const auto& [k, v] : a->items())
        if (v.is_string())
          m.attributes[k] = v.get<std::string>();
    out.push_back(std::move(m));
  }
  return out;
}

bool puller::pull_once(std::chrono::milliseconds& retry) {
  bool timed_out = false;
  auto body = api_->call("POST", "/v1/" + target_.subscription + ":pull",
                         fmt::format(R"({{"maxMessages":{}}})", opts_.max_messages),
                         opts_.pull_timeout, opts_.max_response_bytes, &timed_out);
  if (!body)
    return false;
  auto messages = timed_out ? std::vector<received_message>{} : parse(*body);
  if (messages.empty())
    return pause(opts_.empty_pull_delay);

  std::vector<core::event> events;
  std::vector<std::size_t> sent; // the message of each event
  for (std::size_t i = 0; i < messages.size(); ++i) {
    metrics_.received();
    std::string error;
    auto data = pubsub_event_data(messages[i], target_.json_body, target_.metadata, error);
    if (!data) {
      metrics_.rejected("invalid_json");
      std::uint64_t held_back = 0;
      if (refused_log_.allow(held_back))
        spdlog::warn("{}: message {}: {}; not acknowledged, Pub/Sub delivers it again after "
                     "its ack deadline{}",
                     target_.name, messages[i].id, error, core::held_back_note(held_back));
      continue;
    }
    events.push_back(
      core::make_event(target_.event_source, "pubsub", target_.event_name, std::move(*data)));
    sent.push_back(i);
  }
  auto answers = core::publish_and_wait(*target_.bus, events, [this] { return stopping(); });
  if (!answers)
    return false;
  std::vector<std::string> acks;
  std::vector<std::string> nacks;
  bool refused = false;
  for (std::size_t k = 0; k < sent.size(); ++k) {
    auto i = sent[k];
    auto status = (*answers)[k];
    if (status == core::publish_status::accepted || status == core::publish_status::filtered) {
      if (status == core::publish_status::accepted)
        metrics_.accepted();
      acks.push_back(messages[i].ack_id);
      continue;
    }
    metrics_.rejected(core::to_string(status));
    nacks.push_back(messages[i].ack_id);
    refused = true;
    std::uint64_t held_back = 0;
    if (refused_log_.allow(held_back))
      spdlog::warn("{}: the bus refused message {} ({}); nacked, Pub/Sub delivers it again{}",
                   target_.name, messages[i].id, core::to_string(status),
                   core::held_back_note(held_back));
  }
  settle(acks, false);
  settle(nacks, true);
  if (!refused) {
    retry = opts_.min_retry_delay;
    return true;
  }
  auto delay = retry;
  retry = std::min(retry * 2, opts_.max_retry_delay);
  return pause(delay);
}

void puller::settle(const std::vector<std::string>& ids, bool nack) {
  if (ids.empty())
    return;
  nlohmann::json body{{"ackIds", ids}};
  if (nack)
    body["ackDeadlineSeconds"] = 0;
  auto path = "/v1/" + target_.subscription + (nack ? ":modifyAckDeadline" : ":acknowledge");
  try {
    api_->call("POST", path, body.dump());
  } catch (const api_error& e) {
    std::uint64_t held_back = 0;
    if (error_log_.allow(held_back))
      spdlog::warn("{}: {} ({} messages; Pub/Sub delivers them again){}", target_.name, e.what(),
                   ids.size(), core::held_back_note(held_back));
  }
}

} // namespace ganglion::gcp::detail
