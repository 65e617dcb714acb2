#include "trigger/log_trigger.hpp"

#include <algorithm>
#include <chrono>
#include <mutex>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "trigger/log_spec.hpp"

namespace ganglion::core {

namespace {

/// The most of a firing's events one log line shows: event senders decide their size.
constexpr std::size_t max_logged_bytes = 64 * 1024;

/// `text` cut to `max_logged_bytes` (at a UTF-8 character boundary), saying what was left out.
std::string bounded(std::string text) {
  if (text.size() <= max_logged_bytes)
    return text;
  auto cut = max_logged_bytes;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
    --cut;
  auto left_out = text.size() - cut;
  text.resize(cut);
  return text + fmt::format("… ({} bytes not shown)", left_out);
}

class log_executor : public trigger_executor {
public:
  log_executor(std::string sensor, std::string trigger, std::uint64_t interval_seconds)
    : sensor_(std::move(sensor)), trigger_(std::move(trigger)), interval_(interval_seconds) {}

  void execute(const trigger_invocation& invocation, trigger_done done) override {
    auto now = std::chrono::steady_clock::now();
    if (interval_.count() > 0 && printed_once_ && now - last_ < interval_) {
      ++suppressed_;
      done({true, {}, "throttled"});
      return;
    }
    printed_once_ = true;
    last_ = now;
    auto events = bounded(render(invocation));
    if (suppressed_ > 0)
      spdlog::info("log trigger {}/{} fired ({} firings not shown): {{{}}}", sensor_, trigger_,
                   suppressed_, events);
    else
      spdlog::info("log trigger {}/{} fired: {{{}}}", sensor_, trigger_, events);
    suppressed_ = 0;
    done({true, {}, "logged"});
  }

  std::string preview(const trigger_invocation& invocation) override {
    return fmt::format("log: {{{}}}", render(invocation));
  }

private:
  static std::string render(const trigger_invocation& invocation) {
    std::string events;
    for (const auto& [dependency, e] : invocation.events) {
      if (!events.empty())
        events += ", ";
      events += "\"" + dependency + "\": " + to_json(*e);
    }
    return events;
  }

  std::string sensor_;
  std::string trigger_;
  std::chrono::seconds interval_;
  bool printed_once_ = false;
  std::chrono::steady_clock::time_point last_;
  std::uint64_t suppressed_ = 0;
};

} // namespace

void add_engine_triggers(trigger_registry& registry) {
  registry.try_emplace("log", make_log_trigger_factory());
}

std::vector<std::string> check_log_trigger(const trigger_context& ctx) {
  if (ctx.manifest == nullptr)
    return {"log trigger started without its trigger"};
  return {};
}

trigger_factory make_log_trigger_factory() {
  auto create = [](const trigger_context& ctx) -> std::unique_ptr<trigger_executor> {
    const auto* action = action_of(*ctx.manifest);
    const auto* spec = action ? std::any_cast<log_spec>(&action->spec) : nullptr;
    return std::make_unique<log_executor>(ctx.sensor_name, ctx.manifest->template_.name,
                                          spec ? spec->interval_seconds : 0);
  };
  return {std::move(create), check_log_trigger, log_spec_step()};
}

} // namespace ganglion::core
