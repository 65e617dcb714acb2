#include "client/connection_log.hpp"

#include <librdkafka/rdkafka.h>
#include <simdjson.h>
#include <spdlog/spdlog.h>

namespace ganglion::kafka::detail {

namespace {

spdlog::level::level_enum to_spdlog(int syslog_level) {
  if (syslog_level <= 2)
    return spdlog::level::critical;
  if (syslog_level == 3)
    return spdlog::level::err;
  if (syslog_level == 4)
    return spdlog::level::warn;
  if (syslog_level <= 6)
    return spdlog::level::info;
  return spdlog::level::debug;
}

/// `message` without librdkafka's `[thrd:…]: ` prefix.
std::string_view without_thread(std::string_view message) {
  if (message.substr(0, 6) == "[thrd:") {
    auto end = message.find("]: ");
    if (end != std::string_view::npos)
      return message.substr(end + 3);
  }
  return message;
}

bool is_connection_error(int code) {
  switch (code) {
    case RD_KAFKA_RESP_ERR__TRANSPORT:
    case RD_KAFKA_RESP_ERR__RESOLVE:
    case RD_KAFKA_RESP_ERR__AUTHENTICATION:
    case RD_KAFKA_RESP_ERR__SSL:
      return true;
    default:
      return false;
  }
}

} // namespace

std::string without_suppression_note(std::string_view reason) {
  static constexpr std::string_view note = " identical error(s) suppressed";
  auto at = reason.find(note);
  if (at == std::string_view::npos)
    return std::string(reason);
  auto comma = reason.rfind(", ", at);
  if (comma == std::string_view::npos)
    return std::string(reason);
  std::string out(reason.substr(0, comma));
  out += reason.substr(at + note.size());
  return out;
}

std::string broker_of(std::string_view reason) {
  auto colon = reason.find(": ");
  if (colon == std::string_view::npos)
    return {};
  auto name = reason.substr(0, colon);
  if (name.find('/') == std::string_view::npos || name.find(' ') != std::string_view::npos)
    return {};
  return std::string(name);
}

connection_log::connection_log(std::string client, std::chrono::seconds repeat_window)
  : client_(std::move(client)), repeat_window_(repeat_window) {}

bool connection_log::first_in_window(const std::string& key) {
  auto now = std::chrono::steady_clock::now();
  if (recent_.size() > 1000)
    std::erase_if(recent_, [&](const auto& e) { return now - e.second > repeat_window_; });
  auto [it, inserted] = recent_.try_emplace(key, now);
  if (inserted)
    return true;
  if (now - it->second <= repeat_window_)
    return false;
  it->second = now;
  return true;
}

void connection_log::on_log(int level, std::string_view facility, std::string_view message) {
  // Broker failures also reach on_error, which logs them once per state change.
  if (facility == "FAIL")
    return;
  auto text = without_thread(message);
  auto spd = to_spdlog(level);
  if (!spdlog::should_log(spd))
    return;
  std::lock_guard guard{mutex_};
  if (level <= 4 && !first_in_window(std::string(facility) + '|' + std::string(text)))
    return;
  spdlog::log(spd, "kafka {}: {} ({})", client_, text, facility);
}

void connection_log::on_error(int code, std::string_view code_name, std::string_view reason,
                              bool fatal) {
  auto text = without_suppression_note(reason);
  std::lock_guard guard{mutex_};
  if (fatal) {
    spdlog::error("kafka {}: fatal error {}: {}", client_, code_name, text);
    return;
  }
  if (code == RD_KAFKA_RESP_ERR__ALL_BROKERS_DOWN) {
    if (!all_down_)
      spdlog::warn("kafka {}: all brokers are down ({}); retrying", client_, text);
    all_down_ = true;
    return;
  }
  if (is_connection_error(code)) {
    // The coordinator is a role of a broker whose own connection reports the same failure.
    if (text.starts_with("GroupCoordinator: "))
      return;
    if (auto broker = broker_of(text); !broker.empty()) {
      broker_down(broker, std::string_view(text).substr(broker.size() + 2));
      return;
    }
  }
  if (first_in_window(std::string(code_name) + '|' + text))
    spdlog::warn("kafka {}: {} ({})", client_, text, code_name);
}

void connection_log::warn(const std::string& text) {
  std::lock_guard guard{mutex_};
  if (first_in_window("warn|" + text))
    spdlog::warn("kafka {}: {}", client_, text);
}

void connection_log::broker_down(const std::string& broker, std::string_view reason) {
  auto& state = brokers_[broker];
  if (state != broker_state::down)
    spdlog::warn("kafka {}: broker {} is unreachable: {}; retrying", client_, broker, reason);
  state = broker_state::down;
}

void connection_log::broker_up(const std::string& broker) {
  auto& state = brokers_[broker];
  if (state == broker_state::down)
    spdlog::info("kafka {}: broker {} is reachable again", client_, broker);
  else if (state == broker_state::unknown)
    spdlog::debug("kafka {}: connected to broker {}", client_, broker);
  state = broker_state::up;
  all_down_ = false;
}

void connection_log::on_stats(std::string_view json) {
  thread_local simdjson::dom::parser parser;
  auto doc = parser.parse(json.data(), json.size());
  if (doc.error())
    return;
  simdjson::dom::object brokers;
  if (doc["brokers"].get(brokers) != simdjson::SUCCESS)
    return;
  std::lock_guard guard{mutex_};
  for (auto field : brokers) {
    std::string_view state, source;
    if (field.value["state"].get(state) != simdjson::SUCCESS)
      continue;
    if (field.value["source"].get(source) == simdjson::SUCCESS &&
        (source == "internal" || source == "logical"))
      continue;
    if (state == "UP")
      broker_up(std::string(field.key));
  }
}

} // namespace ganglion::kafka::detail
