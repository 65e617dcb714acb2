#include "storage/event_log.hpp"

#include <algorithm>
#include <cerrno>
#include <filesystem>

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "ganglion/core/event_codec.hpp"

namespace ganglion::core {

namespace {

constexpr auto retention_period = std::chrono::seconds(10);

const std::vector<double>& fsync_buckets() {
  static const std::vector<double> bounds{0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01,
                                          0.025,  0.05,    0.1,    0.25,  0.5,    1,     2.5};
  return bounds;
}

} // namespace

std::optional<fsync_policy> parse_fsync_policy(std::string_view text) {
  if (text == "always")
    return fsync_policy::always;
  if (text == "interval")
    return fsync_policy::interval;
  if (text == "never")
    return fsync_policy::never;
  return std::nullopt;
}

std::string_view to_string(fsync_policy policy) noexcept {
  switch (policy) {
    case fsync_policy::always:
      return "always";
    case fsync_policy::interval:
      return "interval";
    case fsync_policy::never:
      return "never";
  }
  return "interval";
}

event_log::event_log(event_log_options options, metrics_registry* metrics)
  : options_(std::move(options)) {
  if (metrics) {
    appends_metric_ = &metrics->get_counter("ganglion_bus_log_appends_total",
                                            "Events written to the bus's log", {});
    fsyncs_metric_ = &metrics->get_counter("ganglion_bus_log_fsyncs_total",
                                           "fdatasync calls on the bus's log", {});
    fsync_seconds_ = &metrics->get_histogram("ganglion_bus_log_fsync_seconds",
                                             "Duration of an fdatasync of the bus's log", {},
                                             fsync_buckets());
  }
  open_directory();
  auto sync = options_.fsync != fsync_policy::never;
  segments_ = recover_segments(options_.directory, sync, recovery_);
  next_ = recovery_.next_sequence;
  bool created = segments_.empty();
  if (created) {
    auto path = (std::filesystem::path(options_.directory) / segment_file_name(next_)).string();
    segments_.push_back({next_, path, 0, 0, 0});
  }
  open_active(created);
  publish_index();
  next_sequence_.store(next_);
  last_sync_ = last_retention_ = clock::now();
  if (options_.fsync == fsync_policy::interval) {
    syncer_ = std::make_unique<background_sync>(options_.fsync_interval, [this](double seconds) {
      fsync_count_.fetch_add(1);
      if (fsyncs_metric_)
        fsyncs_metric_->inc();
      if (fsync_seconds_)
        fsync_seconds_->observe(seconds);
    });
    syncer_->follow(active_fd_.get());
  }
  writer_ = std::thread([this] { run(); });
}

event_log::~event_log() {
  {
    std::lock_guard guard{mutex_};
    stop_ = true;
  }
  wake_.notify_one();
  if (writer_.joinable())
    writer_.join();
}

void event_log::open_directory() {
  const auto& dir = options_.directory;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    throw event_log_error(fmt::format("cannot create data directory {}: {}", dir, ec.message()));
  auto lock_path = (std::filesystem::path(dir) / "LOCK").string();
  lock_fd_.reset(::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644));
  if (!lock_fd_)
    throw event_log_error(fmt::format("cannot open {}: {}", lock_path, error_text(errno)));
  if (::flock(lock_fd_.get(), LOCK_EX | LOCK_NB) != 0) {
    if (errno == EWOULDBLOCK)
      throw event_log_error(
        fmt::format("data directory {} is in use by another ganglion process", dir));
    throw event_log_error(fmt::format("cannot lock {}: {}", lock_path, error_text(errno)));
  }
}

void event_log::open_active(bool created) {
  const auto& path = segments_.back().path;
  active_fd_.reset(::open(path.c_str(), O_WRONLY | O_CLOEXEC | (created ? O_CREAT : 0), 0644));
  if (!active_fd_)
    throw event_log_error(fmt::format("cannot open {}: {}", path, error_text(errno)));
  active_bytes_ = segments_.back().bytes;
  if (created && options_.fsync != fsync_policy::never) {
    if (int error = sync_directory(options_.directory))
      throw event_log_error(
        fmt::format("cannot sync directory {}: {}", options_.directory, error_text(error)));
  }
}

void event_log::append(event&& e, append_done done) {
  bool was_empty = false;
  {
    std::lock_guard guard{mutex_};
    was_empty = queue_.empty();
    queue_.push_back({std::move(e), std::move(done)});
  }
  if (was_empty)
    wake_.notify_one();
}

void event_log::flush() {
  std::unique_lock lock{mutex_};
  auto ticket = ++flush_requested_;
  wake_.notify_one();
  flushed_cv_.wait(lock, [&] { return flush_done_ >= ticket; });
}

void event_log::release(std::uint64_t below) noexcept {
  auto current = released_below_.load();
  while (below > current && !released_below_.compare_exchange_weak(current, below)) {
  }
}

std::string event_log::failure() const {
  std::lock_guard guard{mutex_};
  return failure_;
}

event_log::clock::time_point event_log::next_deadline() const {
  auto deadline = last_retention_ + retention_period;
  if (dirty_ && options_.fsync == fsync_policy::interval && !syncer_)
    deadline = std::min(deadline, last_sync_ + options_.fsync_interval);
  return deadline;
}

void event_log::run() {
  std::vector<pending> batch;
  for (;;) {
    std::uint64_t ticket = 0;
    bool stopping = false;
    {
      std::unique_lock lock{mutex_};
      while (queue_.empty() && !stop_ && flush_requested_ == flush_done_) {
        if (wake_.wait_until(lock, next_deadline()) == std::cv_status::timeout)
          break;
      }
      batch.swap(queue_);
      ticket = flush_requested_;
      stopping = stop_;
    }
    if (!batch.empty()) {
      write_batch(batch);
      batch.clear();
    }
    auto now = clock::now();
    bool flushing = ticket != flush_done_;
    bool interval_due = options_.fsync == fsync_policy::interval && !syncer_
                        && now - last_sync_ >= options_.fsync_interval;
    if (syncer_ && !failed_)
      if (auto error = syncer_->error(); !error.empty())
        fail(fmt::format("{} ({})", error, segments_.back().path));
    if (dirty_ && (flushing || interval_due || (stopping && options_.fsync != fsync_policy::never)))
      sync_active();
    if (flushing || rolled_ || now - last_retention_ >= retention_period)
      run_retention();
    if (flushing) {
      {
        std::lock_guard guard{mutex_};
        flush_done_ = ticket;
      }
      flushed_cv_.notify_all();
    }
    if (stopping) {
      std::lock_guard guard{mutex_};
      if (queue_.empty())
        break;
    }
  }
}

void event_log::write_batch(std::vector<pending>& batch) {
  if (failed_) {
    for (auto& p : batch)
      p.done(std::move(p.e), &error_);
    return;
  }
  static const std::string too_large =
    fmt::format("the event is larger than the log's limit of {} bytes", max_record_payload);
  std::vector<char> rejected(batch.size(), 0);
  std::size_t durable = 0;
  auto durable_next = next_;
  buffer_.clear();
  buffer_records_ = 0;
  bool ok = true;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    auto& e = batch[i].e;
    if (encoded_size(e) > max_record_payload) {
      rejected[i] = 1;
      continue;
    }
    auto filled = active_bytes_ + buffer_.size();
    if (filled >= options_.segment_bytes && filled > 0) {
      if (!write_buffer()) {
        ok = false;
        break;
      }
      durable = i;
      durable_next = next_;
      if (!roll()) {
        ok = false;
        break;
      }
    }
    e.sequence = next_++;
    append_record(buffer_, e, e.sequence);
    ++buffer_records_;
  }
  ok = ok && write_buffer() && (options_.fsync != fsync_policy::always || sync_active());
  if (ok) {
    durable = batch.size();
  } else {
    // What was not written gets its sequences back: no reader saw them.
    next_ = durable_next;
    buffer_.clear();
    buffer_records_ = 0;
  }
  next_sequence_.store(next_);
  const auto& error = failed_ ? error_ : no_space_;
  std::size_t refused = 0;
  for (std::size_t i = 0; i < batch.size(); ++i) {
    auto& p = batch[i];
    if (rejected[i]) {
      p.done(std::move(p.e), &too_large);
    } else if (i < durable) {
      p.done(std::move(p.e), nullptr);
    } else {
      p.e.sequence = 0;
      ++refused;
      p.done(std::move(p.e), &error);
    }
  }
  if (!failed_ && !no_space_.empty())
    refused_for_space_ += refused;
}

bool event_log::write_buffer() {
  if (buffer_.empty() || failed_)
    return !failed_;
  const auto& path = segments_.back().path;
  if (int error = pwrite_all(active_fd_.get(), buffer_.data(), buffer_.size(), active_bytes_)) {
    // A partial record would be cut at the next open anyway; cut it now so replay and later
    // segments never see it, and so the next append starts on a record boundary.
    bool cut = ::ftruncate(active_fd_.get(), static_cast<off_t>(active_bytes_)) == 0;
    if (!cut)
      spdlog::warn("bus log: cannot truncate {} after a failed write: {}", path,
                   error_text(errno));
    auto message = fmt::format("write to {} failed: {}", path, error_text(error));
    if (cut && out_of_space(error))
      lack_space(std::move(message));
    else
      fail(std::move(message));
    return false;
  }
  if (!no_space_.empty())
    space_returned();
  active_bytes_ += buffer_.size();
  dirty_ = true;
  {
    std::lock_guard guard{index_mutex_};
    auto& s = segments_.back();
    s.bytes = s.readable = active_bytes_;
    s.records += buffer_records_;
  }
  size_bytes_.fetch_add(buffer_.size());
  if (syncer_)
    syncer_->written();
  if (appends_metric_)
    appends_metric_->inc(buffer_records_);
  buffer_.clear();
  buffer_records_ = 0;
  return true;
}

bool event_log::out_of_space(int error) noexcept {
  return error == ENOSPC || error == EDQUOT;
}

void event_log::lack_space(std::string message) {
  if (no_space_.empty())
    spdlog::error("bus log: {}; events are refused until space returns", message);
  no_space_ = std::move(message);
}

void event_log::space_returned() {
  spdlog::info("bus log: space returned; writing again ({} event(s) were refused meanwhile)",
               refused_for_space_);
  no_space_.clear();
  refused_for_space_ = 0;
}

bool event_log::roll() {
  if (options_.fsync != fsync_policy::never && !sync_active())
    return false;
  auto path = (std::filesystem::path(options_.directory) / segment_file_name(next_)).string();
  unique_fd fd{::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)};
  if (!fd) {
    int error = errno;
    auto message = fmt::format("cannot create {}: {}", path, error_text(error));
    if (out_of_space(error))
      lack_space(std::move(message));
    else
      fail(std::move(message));
    return false;
  }
  if (options_.fsync != fsync_policy::never) {
    if (int error = sync_directory(options_.directory)) {
      fail(fmt::format("cannot sync directory {}: {}", options_.directory, error_text(error)));
      return false;
    }
  }
  active_fd_ = std::move(fd);
  if (syncer_)
    syncer_->follow(active_fd_.get());
  active_bytes_ = 0;
  dirty_ = false;
  rolled_ = true;
  {
    std::lock_guard guard{index_mutex_};
    segments_.push_back({next_, path, 0, 0, 0});
  }
  publish_index();
  return true;
}

bool event_log::sync_active() {
  if (failed_ || !dirty_)
    return !failed_;
  auto began = clock::now();
  int error = data_sync(active_fd_.get());
  auto now = clock::now();
  fsync_count_.fetch_add(1);
  if (fsyncs_metric_)
    fsyncs_metric_->inc();
  if (fsync_seconds_)
    fsync_seconds_->observe(std::chrono::duration<double>(now - began).count());
  if (error) {
    fail(fmt::format("fdatasync of {} failed: {}", segments_.back().path, error_text(error)));
    return false;
  }
  dirty_ = false;
  last_sync_ = now;
  return true;
}

void event_log::fail(std::string message) {
  if (failed_)
    return;
  failed_ = true;
  dirty_ = false; // nothing more is synced: no timed wake-ups for it
  error_ = std::move(message);
  spdlog::error("bus log: {}; every later event is refused", error_);
  std::lock_guard guard{mutex_};
  failure_ = error_;
}

void event_log::run_retention() {
  last_retention_ = clock::now();
  rolled_ = false;
  auto below = released_below_.load();
  auto oldest_kept = std::filesystem::file_time_type::clock::now() - options_.retention_age;
  {
    std::lock_guard guard{index_mutex_};
    std::uint64_t total = 0;
    for (const auto& s : segments_)
      total += s.bytes;
    while (segments_.size() > 1 && segments_[1].first <= below) {
      const auto& s = segments_.front();
      bool expired = total > options_.retention_bytes;
      if (!expired) {
        std::error_code ec;
        auto modified = std::filesystem::last_write_time(s.path, ec);
        expired = !ec && modified < oldest_kept;
      }
      if (!expired)
        break;
      if (::unlink(s.path.c_str()) != 0 && errno != ENOENT) {
        spdlog::warn("bus log: cannot delete {}: {}", s.path, error_text(errno));
        break;
      }
      total -= s.bytes;
      segments_.erase(segments_.begin());
    }
  }
  publish_index();
}

void event_log::publish_index() {
  std::lock_guard guard{index_mutex_};
  std::uint64_t total = 0;
  for (const auto& s : segments_)
    total += s.bytes;
  size_bytes_.store(total);
  segment_count_.store(segments_.size());
}

} // namespace ganglion::core
