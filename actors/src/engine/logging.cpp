#include "ganglion/core/logging.hpp"

#include <atomic>
#include <memory>
#include <mutex>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

#include "ganglion/core/redact.hpp"

namespace ganglion::core {

namespace {

log_level level_of(spdlog::level::level_enum level) {
  switch (level) {
    case spdlog::level::trace: return log_level::trace;
    case spdlog::level::debug: return log_level::debug;
    case spdlog::level::info: return log_level::info;
    case spdlog::level::warn: return log_level::warn;
    case spdlog::level::err: return log_level::error;
    case spdlog::level::critical: return log_level::critical;
    default: return log_level::off;
  }
}

spdlog::level::level_enum spdlog_level(log_level level) {
  switch (level) {
    case log_level::trace: return spdlog::level::trace;
    case log_level::debug: return spdlog::level::debug;
    case log_level::info: return spdlog::level::info;
    case log_level::warn: return spdlog::level::warn;
    case log_level::error: return spdlog::level::err;
    case log_level::critical: return spdlog::level::critical;
    case log_level::off: return spdlog::level::off;
  }
  return spdlog::level::info;
}

class callback_sink : public spdlog::sinks::base_sink<std::mutex> {
public:
  explicit callback_sink(log_callback callback) : callback_(std::move(callback)) {}

protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    callback_(level_of(msg.level), std::string_view{msg.payload.data(), msg.payload.size()});
  }
  void flush_() override {}

private:
  log_callback callback_;
};

/// A logger that strips URL userinfo from each line before its sinks see it; a line without
/// `@` costs one memchr.
class redacting_logger final : public spdlog::logger {
public:
  using spdlog::logger::logger;

protected:
  void sink_it_(const spdlog::details::log_msg& msg) override {
    std::string redacted;
    if (!redact_url_userinfo_into({msg.payload.data(), msg.payload.size()}, redacted))
      return spdlog::logger::sink_it_(msg);
    auto copy = msg;
    copy.payload = spdlog::string_view_t{redacted.data(), redacted.size()};
    spdlog::logger::sink_it_(copy);
  }
};

/// A redacting logger writing to the sinks of `from`, at its levels.
std::shared_ptr<spdlog::logger> redacting_copy(const spdlog::logger& from) {
  auto out = std::make_shared<redacting_logger>(from.name(), from.sinks().begin(),
                                                from.sinks().end());
  out->set_level(from.level());
  out->flush_on(from.flush_level());
  return out;
}

std::atomic<bool> redacting{false};

/// The default logger before the first callback, restored by an empty one.
std::shared_ptr<spdlog::logger>& original_logger() {
  static auto original = spdlog::default_logger();
  return original;
}

} // namespace

void set_log_callback(log_callback callback) {
  static std::mutex mutex;
  std::lock_guard guard{mutex};
  auto& original = original_logger();
  auto level = spdlog::default_logger()->level();
  std::shared_ptr<spdlog::logger> next;
  if (callback)
    next = std::make_shared<redacting_logger>(
      "ganglion", std::make_shared<callback_sink>(std::move(callback)));
  else
    next = redacting ? redacting_copy(*original) : original;
  next->set_level(level);
  spdlog::set_default_logger(std::move(next));
}

void redact_log_lines() {
  static std::mutex mutex;
  std::lock_guard guard{mutex};
  if (redacting.exchange(true))
    return;
  original_logger();
  auto current = spdlog::default_logger();
  if (!dynamic_cast<redacting_logger*>(current.get()))
    spdlog::set_default_logger(redacting_copy(*current));
}

void set_log_level(log_level level) {
  spdlog::set_level(spdlog_level(level));
}

} // namespace ganglion::core
