#pragma once

// Private: when a generic source gives up.

#include <functional>
#include <mutex>
#include <string>

namespace ganglion::grpc::detail {

/// Counts a generic source's consecutive failed attempts across its replicas. An attempt that
/// fails while another replica's stream is open does not count: that replica answers. The
/// `max_failures`-th failure in a row calls `give_up` once, and the source's streams stop.
/// The first stream that opens calls `connected` once. Thread-safe.
class source_health {
public:
  source_health(int max_failures, std::function<void(const std::string&)> give_up,
                std::function<void()> connected)
    : max_failures_(max_failures), give_up_(std::move(give_up)), connected_(std::move(connected)) {}

  /// A replica's stream opened.
  void stream_opened() {
    bool first = false;
    {
      std::lock_guard guard{mutex_};
      ++open_streams_;
      first = !opened_;
      opened_ = true;
    }
    if (first && connected_)
      connected_();
  }

  /// A replica's stream ended.
  void stream_closed() {
    std::lock_guard guard{mutex_};
    --open_streams_;
  }

  /// A stream delivered an event or stayed open: the failures in a row start again from zero.
  void succeeded() {
    std::lock_guard guard{mutex_};
    failures_ = 0;
  }

  /// One failed attempt (`error` says why). True when the source has given up: the caller
  /// stops trying.
  bool failed(const std::string& error) {
    std::string reason;
    {
      std::lock_guard guard{mutex_};
      if (gave_up_)
        return true;
      if (open_streams_ > 0)
        return false;
      if (++failures_ < max_failures_)
        return false;
      gave_up_ = true;
      reason = std::to_string(failures_) + " attempts in a row failed; the last: " + error;
    }
    if (give_up_)
      give_up_(reason);
    return true;
  }

  /// True once the source gave up.
  bool gave_up() const {
    std::lock_guard guard{mutex_};
    return gave_up_;
  }

  /// Failed attempts in a row so far.
  int failures() const {
    std::lock_guard guard{mutex_};
    return failures_;
  }

private:
  const int max_failures_;
  std::function<void(const std::string&)> give_up_;
  std::function<void()> connected_;
  mutable std::mutex mutex_;
  bool opened_ = false;
  int open_streams_ = 0;
  int failures_ = 0;
  bool gave_up_ = false;
};

} // namespace ganglion::grpc::detail
