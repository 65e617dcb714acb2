#pragma once

// The lines spdlog's default logger writes during a test (tests that link spdlog).

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include <spdlog/sinks/base_sink.h>
#include <spdlog/spdlog.h>

namespace ganglion::test {

/// Keeps every line the default logger writes while this object lives.
class log_capture {
public:
  log_capture() { spdlog::default_logger()->sinks().push_back(sink_); }
  ~log_capture() {
    auto& sinks = spdlog::default_logger()->sinks();
    sinks.erase(std::remove(sinks.begin(), sinks.end(), sink_), sinks.end());
  }
  log_capture(const log_capture&) = delete;
  log_capture& operator=(const log_capture&) = delete;

  /// The lines that contain `text`, in the order they were written.
  std::vector<std::string> lines(std::string_view text = {}) const { return sink_->lines(text); }

  /// How many lines contain `text`.
  std::size_t count(std::string_view text) const { return lines(text).size(); }

private:
  class sink final : public spdlog::sinks::base_sink<std::mutex> {
  public:
    std::vector<std::string> lines(std::string_view text) {
      std::lock_guard guard{mutex_};
      std::vector<std::string> out;
      for (const auto& line : lines_)
        if (line.find(text) != std::string::npos)
          out.push_back(line);
      return out;
    }

  protected:
    void sink_it_(const spdlog::details::log_msg& msg) override {
      lines_.emplace_back(msg.payload.data(), msg.payload.size());
    }
    void flush_() override {}

  private:
    std::vector<std::string> lines_;
  };

  std::shared_ptr<sink> sink_ = std::make_shared<sink>();
};

} // namespace ganglion::test
