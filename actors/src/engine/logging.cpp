#include "ganglion/core/logging.hpp"

#include <memory>
#include <mutex>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

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
    next = std::make_shared<spdlog::logger>("ganglion",
                                            std::make_shared<callback_sink>(std::move(callback)));
  else
    next = original;
  next->set_level(level);
  spdlog::set_default_logger(std::move(next));
}

void set_log_level(log_level level) {
  spdlog::set_level(spdlog_level(level));
}

} // namespace ganglion::core
